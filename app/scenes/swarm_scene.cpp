#include "scenes/swarm_scene.h"

#include <stdexcept>

namespace cv {

using swarm::Variant;

static constexpr uint64_t kSeed = 4004;

SwarmScene::SwarmScene(Backend backend, unsigned count, Variant variant,
                       const TransferConfig& transfer)
    : ParticleScene(backend, transfer), variant_(variant), params_(swarm::default_params(variant)) {
  if (auto err = reconfigure(count)) throw std::invalid_argument(*err);
}

std::optional<std::string> SwarmScene::reconfigure(unsigned count) {
  if (count < 1 || count > kMaxCount)
    return "particle count " + std::to_string(count) + " is outside [1, " +
           std::to_string(kMaxCount) + "]";
  // Build aside, swap in only when everything succeeded (the fountain's rule).
  std::unique_ptr<InteropBuffer> buffer;
  std::unique_ptr<swarm::SwarmGpu> gpu;
  std::unique_ptr<swarm::SwarmCpu> cpu;
  const std::string what = std::to_string(count) + " particles";
  if (auto err = attempt_or_undo(what, [&] {
        buffer = make_buffer(swarm::vbo_bytes(count));
        if (backend_ == Backend::Cuda)
          gpu = std::make_unique<swarm::SwarmGpu>(count, variant_);
        else
          cpu = std::make_unique<swarm::SwarmCpu>(count, variant_);
      }))
    return err;
  // Swap in, then reset: the CPU twin allocates its state there. If that fails,
  // the previous buffers and simulation come back untouched.
  const unsigned old_count = count_;
  const long long old_steps = steps_;
  const uint64_t old_path = path_step_;
  auto swap_all = [&] {
    std::swap(buffer_, buffer);
    std::swap(gpu_, gpu);
    std::swap(cpu_, cpu);
  };
  swap_all();
  count_ = count;
  auto roll_back = [&] {
    swap_all();
    count_ = old_count;
    steps_ = old_steps;
    path_step_ = old_path;
  };
  return attempt_or_undo(
      what, [&] { reset(); }, roll_back);
}

void SwarmScene::set_variant(Variant v) {
  variant_ = v;
  params_ = swarm::default_params(v);
  if (gpu_) gpu_->set_variant(v);
  if (cpu_) cpu_->set_variant(v);
}

float3 SwarmScene::next_target() {
  if (follow_pointer) {
    target_ = pointer_;
  } else {
    const float3 t = swarm::path_target(path_step_);
    target_ = glm::vec3(t.x, t.y, t.z);
  }
  ++path_step_;  // the path keeps moving underneath, so switching back is smooth
  return make_float3(target_.x, target_.y, target_.z);
}

void SwarmScene::reset() {
  path_step_ = 0;
  steps_ = 0;
  const float3 t = next_target();
  path_step_ = 0;
  write_buffer([&](float4* vbo, cudaStream_t s) {
    if (gpu_)
      gpu_->reset(vbo, params_, kSeed, s, t);
    else
      cpu_->reset(params_, kSeed, t);
  });
}

void SwarmScene::simulate_gpu(const float4* source, float4* vbo, cudaStream_t s,
                                   const BlockShape& b) {
  gpu_->step_from(source, vbo, next_target(), params_, b, s, ids_out_);
}

void SwarmScene::simulate_cpu() {
  cpu_->step(next_target(), params_);
}

const void* SwarmScene::cpu_vertices() const {
  return cpu_->vbo().data();
}

ParticleScene::CameraHome SwarmScene::camera_home() const {
  CameraHome h;
  h.target = {0.f, 0.f, 0.f};
  h.distance = 4.3f;
  h.pitch = 0.35f;
  return h;
}

void SwarmScene::describe(nlohmann::ordered_json& j) const {
  j["variant"] = swarm::to_string(variant_);
  j["target"] = follow_pointer ? "mouse" : "path";
}

std::optional<insight::ElementLaunch> SwarmScene::element_launch() const {
  const auto g = swarm::make_grid(count_);
  return insight::make_launch(insight::Layout::RowsYz, g.width, g.height, count_, block_,
                              "swarm step_kernel");
}

std::string SwarmScene::grid_note() const {
  const auto g = swarm::make_grid(count_);
  return "grid " + std::to_string((g.width + block_.x - 1) / block_.x) + "x" +
         std::to_string((g.height + block_.y - 1) / block_.y) + " blocks over " +
         std::to_string(g.width) + "x" + std::to_string(g.height) + " particles";
}

ParticleStyle SwarmScene::style() const {
  ParticleStyle st;
  st.palette = ParticleStyle::Palette::Age;
  st.scalar_scale = 1.f;  // w is already age / max_age
  st.point_size = count_ > (1u << 20) ? point_size * 0.3f : point_size;
  // Additive blending: dense swarms saturate to white unless each sprite is faint.
  st.opacity = count_ > (1u << 20) ? 0.15f : count_ > (1u << 16) ? 0.3f : 0.45f;
  st.hide_below = kFloorHeight;
  return st;
}

void SwarmScene::on_pointer(const Pointer& p) {
  if (!follow_pointer) return;
  if (auto hit = p.camera.pick_plane(p.ndc_x, p.ndc_y, p.aspect, 0.f)) {
    glm::vec3 at = *hit;
    const float r = glm::length(glm::vec2(at.x, at.z)), limit = 1.2f;
    if (r > limit) at *= limit / r;  // keep the swarm over the floor
    pointer_ = at;
  }
}

}  // namespace cv
