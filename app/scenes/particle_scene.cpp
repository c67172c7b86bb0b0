#include "scenes/particle_scene.h"

#include <stdexcept>

#include "common/fault_injection.h"
#include "common/nvtx_range.h"

namespace cv {

ParticleScene::ParticleScene(Backend backend, const TransferConfig& transfer)
    : backend_(backend), interop_(transfer.interop), gl_finish_(transfer.gl_finish) {
  if (backend_ == Backend::Cuda) {
    stream_.emplace();
    kernel_timer_.emplace();
    step_timer_.emplace();
    map_timer_.emplace();
    unmap_timer_.emplace();
  }
}

std::unique_ptr<VertexTarget> ParticleScene::make_vertices(size_t bytes) const {
  return make_vertex_target(bytes, backend_, interop_, ping_pong());
}

void ParticleScene::poll_timers() {
  for (float ms : kernel_timer_->poll()) kernel_ms.push(ms);
  for (float ms : step_timer_->poll()) step_ms.push(ms);
  for (float ms : map_timer_->poll()) map_pending_.push_back(ms);
  // Unmaps complete after their maps (same stream): pair them in order.
  for (float ms : unmap_timer_->poll()) {
    if (map_pending_.empty()) break;
    map_ms.push(map_pending_.front());
    unmap_ms.push(ms);
    interop_ms.push(map_pending_.front() + ms);
    map_pending_.erase(map_pending_.begin());
  }
  if (map_pending_.size() > 2 * CudaTimerRing::kSlots)
    map_pending_.clear();  // rings dropped results
}

std::optional<std::string> ParticleScene::set_block(const BlockShape& b) {
  if (auto err = validate(b, block_limits(backend_))) return err;
  if (auto err = check_block(b)) return err;
  block_ = b;
  return std::nullopt;
}

std::string ParticleScene::transfer_note() const {
  if (backend_ == Backend::Cpu) return "CPU backend: host upload";
  if (!vertices_) return "";
  const std::string reason = vertices_->fallback_reason();
  const std::string why = reason.empty() ? "" : " (" + reason + ")";
  if (vertices_->mode() == TransferMode::External) return "interop: external memory, no map";
  if (vertices_->mode() == TransferMode::Interop) return "interop: mapped VBO" + why;
  return "interop: copy fallback" + why;
}

nlohmann::ordered_json ParticleScene::throughput() const {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  const float ms = kernel_ms.recent_median(kRateFrames);
  if (ms > 0) j["particles_per_s"] = count() / (ms * 1e-3);
  return j;
}

namespace {
// The NVTX range of a step's launch: "fountain lean block=16x16 n=65536 cuda" (built
// only when a tool listens: nvtx::Range's callable).
std::string launch_label(const ParticleScene& scene) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  scene.describe(j);
  std::string s = scene.name();
  if (j.contains("variant") && j["variant"].is_string()) s += " " + j["variant"].get<std::string>();
  s += " block=" + to_string(scene.block()) + " n=" + std::to_string(scene.count());
  return s + (scene.backend() == Backend::Cuda ? " cuda" : " cpu");
}
}  // namespace

// One flow for both backends: open the particles (map on CUDA, nothing on
// the CPU), simulate, close (unmap / record for GL, or upload). Only the clocks
// differ: CUDA events read a few frames later, or CPU stopwatches.
void ParticleScene::step() {
  if (!needs_step()) return;
  const bool want_ids = prepare_ids();
  const bool cuda = backend_ == Backend::Cuda;
  const cudaStream_t s = cuda_stream();
  if (cuda) {
    poll_timers();
    if (gl_finish_) glFinish();
    step_timer_->begin(s);
    map_timer_->begin(s);
  } else {
    // The CPU twin stands where the kernel launch would: CUDAVIZ_FAULT can fail it too.
    inject_launch_fault(("cpu " + std::string(name()) + " step").c_str());
  }
  CpuStopwatch total;
  {
    VertexWrite out = vertices_->write(s);
    // The ids are written in full every step, so a pair ping-pongs like the
    // vertices: CUDA writes the back while GL may still draw the front (a
    // single buffer's map waits for all GL work so far: ~0.3 ms a frame).
    // The CPU backend derives them after the step (cpu_ids).
    std::optional<VertexWrite> ids;
    if (want_ids && cuda) ids.emplace(ids_->write(s));
    if (cuda) {
      map_timer_->end(s);
      // CPU waits of the external path: last frame's draw, this frame's fence.
      sync_wait_ms.push(vertices_->take_sync_wait_ms() + (ids ? ids_->take_sync_wait_ms() : 0.f));
      kernel_timer_->begin(s);
    }
    ids_out_ = {ids ? static_cast<uint32_t*>(ids->device()) : nullptr, static_cast<int>(colour_by_)};
    user_step_ms_.reset();
    CpuStopwatch sim;
    {
      const nvtx::Range launch([this] { return launch_label(*this); });
      simulate(out, block_);
    }
    ids_out_ = {};
    const bool yours = user_step_ms_.has_value();
    if (yours != yours_) switch_kernel_source(yours);
    if (cuda) {
      // The events around a step of yours span the round trip, not your kernel.
      if (yours)
        kernel_timer_->cancel();
      else
        kernel_timer_->end(s);
      unmap_timer_->begin(s);
    } else if (!yours) {
      kernel_ms.push(sim.ms());
    }
    if (yours) {
      kernel_ms.push(*user_step_ms_);
      user_ms_.push(*user_step_ms_);
      round_trip_ms.push(user_round_trip_ms_);
    }
    if (ids) ids->close();
    out.close();
    if (cuda) {
      unmap_timer_->end(s);
      step_timer_->end(s);
    } else {
      step_ms.push(total.ms());
    }
  }
  if (want_ids) {
    if (cuda)
      ids_mode_ = colour_by_;
    else
      cpu_ids();  // after the timed step: the ids are the picture's, not the kernel's
  }
  ++steps_;
  after_step();
}

void ParticleScene::report_user_step(double kernel_ms, double round_trip_ms) {
  user_step_ms_ = static_cast<float>(kernel_ms);
  user_round_trip_ms_ = static_cast<float>(round_trip_ms);
}

void ParticleScene::switch_kernel_source(bool yours) {
  if (yours) builtin_median_ = kernel_ms.median();
  yours_ = yours;
  // Every series of the kernel's times restarts together: a step of yours
  // reported before the switch would otherwise stay in one and not the other.
  kernel_ms.clear();
  user_ms_.clear();
  round_trip_ms.clear();
  if (kernel_timer_) kernel_timer_->drop_pending();
}

void ParticleScene::wait_for_gpu() {
  if (vertices_) vertices_->wait_for_gpu();
  if (ids_drawn()) ids_->wait_for_gpu();
}

std::string ParticleScene::colour_by_note() const {
  if (colour_by_ == insight::ColourBy::Normal) return "";
  if (!element_launch())
    return std::string("the ") + name() +
           " scene does not report its launch (colour by launch: fountain, swarm, n-body)";
  if (colour_by_ == insight::ColourBy::Sm && backend_ == Backend::Cpu)
    return "SM ids need a GPU (CUDA backend): colours stay normal";
  return "";
}

bool ParticleScene::prepare_ids() {
  if (colour_by_ == insight::ColourBy::Normal || !colour_by_note().empty()) {
    ids_mode_ = insight::ColourBy::Normal;
    return false;
  }
  const size_t bytes = static_cast<size_t>(count()) * sizeof(uint32_t);
  if (!ids_ || ids_->bytes() != bytes) {
    ids_.reset();
    ids_ = make_vertices(bytes);
  }
  return true;
}

void ParticleScene::cpu_ids() {
  const auto launch = element_launch();
  host_ids_.resize(count());
  insight::fill_ids(*launch, colour_by_, host_ids_.data());
  VertexWrite w = ids_->write(nullptr);
  w.put(host_ids_.data(), host_ids_.size() * sizeof(uint32_t));
  w.close();
  ids_mode_ = colour_by_;
}

bool ParticleScene::ids_drawn() const {
  // Only ids written for this mode and this count colour the picture.
  return ids_ && ids_mode_ != insight::ColourBy::Normal && ids_mode_ == colour_by_ &&
         ids_->bytes() == static_cast<size_t>(count()) * sizeof(uint32_t);
}

ParticleStyle ParticleScene::styled() const {
  ParticleStyle st = style();
  if (ids_drawn()) {
    st.colour_by = static_cast<int>(ids_mode_);
    st.id_vbo = ids_->vbo();
    st.opacity = 1.f;  // drawn over, not added (particle_renderer): each sprite shows its id
  }
  return st;
}

bool ParticleScene::runs_user_kernels() const {
  const SceneDescriptor* d = scene_registry().find(name());
  return d && d->runs_user_kernels;
}

std::optional<insight::AccessKernel> ParticleScene::access_kernel(const BlockShape& b) const {
  const SceneDescriptor* d = scene_registry().find(name());
  if (!d || !d->access_model) return std::nullopt;
  return d->access_model(variant_name(), count(), b);
}

std::optional<std::string> ParticleScene::rebuild_for(const RebuildRequest& r, bool* rebuilt) {
  if (rebuilt) *rebuilt = false;
  if (r.count == count() && !r.variant && r.choices.empty()) return std::nullopt;
  return std::string("the ") + name() + " scene cannot be rebuilt";
}

}  // namespace cv
