#include "scenes/nbody_scene.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "scenes/scene_user_kernel.h"

namespace cv {

using nbody::Initial;
using nbody::Variant;

static constexpr uint64_t kSeed = 1729;

NBodyScene::NBodyScene(Backend backend, unsigned count, Variant v, Initial initial,
                       const TransferConfig& transfer)
    : ParticleScene(backend, transfer), variant(v), initial_(initial) {
  block_ = BlockShape{256, 1, 1};
  block_2d_ = false;
  if (auto err = reconfigure(count, initial)) throw std::invalid_argument(*err);
}

std::optional<std::string> NBodyScene::check_block(const BlockShape& b) const {
  if (auto e = scene_user::block_limit(user_kernel_running(), b)) return e;
  if (b.y != 1 || b.z != 1)
    return "the n-body kernels use 1D blocks: give x only (" + to_string(b) + " has y or z > 1)";
  if (!fast_build.empty() && b.threads() > nbody::fast_tile_max_threads(fast_build))
    return "the fast build " + fast_build + " runs blocks of at most " +
           std::to_string(nbody::fast_tile_max_threads(fast_build)) + " threads, not " +
           std::to_string(b.threads()) + " (set the fast build to auto or another build first)";
  return std::nullopt;
}

std::optional<std::string> NBodyScene::reconfigure(unsigned count, Initial initial) {
  const unsigned limit = max_count(backend_);
  if (count < 2 || count > limit)
    return "body count " + std::to_string(count) + " is outside [2, " + std::to_string(limit) +
           "]" + (backend_ == Backend::Cpu ? " on the CPU backend (O(N^2) a step)" : "");
  return rebuild(
      std::to_string(count) + " bodies", static_cast<size_t>(count) * sizeof(float4), sim_,
      [&] { return make_nbody_sim(backend_, count); },
      [&] {
        count_ = count;
        initial_ = initial;
        // O(N^2) energy every few frames is cheap only for small systems.
        energy_every =
            count <= kAutoEnergyLimit && (backend_ == Backend::Cuda || count <= 4096) ? 10 : 0;
      },
      keep(count_, initial_, energy_every, view_radius_, speed_range_));
}

namespace {
float percentile(std::vector<float> v, double q) {
  if (v.empty()) return 0.f;
  const size_t k = std::min(v.size() - 1, static_cast<size_t>(q * static_cast<double>(v.size())));
  std::nth_element(v.begin(), v.begin() + static_cast<long>(k), v.end());
  return v[k];
}
}  // namespace

void NBodyScene::reset() {
  // Bodies are built on the host (both backends start identically), which
  // also lets the camera and the palette fit the system without a readback.
  const nbody::Bodies bodies = nbody::make_bodies(initial_, count_, params_, kSeed);
  double cx = 0, cy = 0, cz = 0, m = 0;
  for (size_t i = 0; i < bodies.pos.size(); ++i) {
    const double w = bodies.vel[i].w;
    cx += w * bodies.pos[i].x;
    cy += w * bodies.pos[i].y;
    cz += w * bodies.pos[i].z;
    m += w;
  }
  if (m > 0) cx /= m, cy /= m, cz /= m;
  std::vector<float> r(bodies.pos.size()), v(bodies.pos.size());
  for (size_t i = 0; i < bodies.pos.size(); ++i) {
    const float4& p = bodies.pos[i];
    r[i] = static_cast<float>(
        std::sqrt((p.x - cx) * (p.x - cx) + (p.y - cy) * (p.y - cy) + (p.z - cz) * (p.z - cz)));
    const float4& q = bodies.vel[i];
    v[i] = std::sqrt(q.x * q.x + q.y * q.y + q.z * q.z);
  }
  view_radius_ = std::max(percentile(r, 0.95), 0.1f);
  // Orange at 1.25x the 95th percentile speed: the bulk spans blue to white.
  speed_range_ = std::max(1.25f * percentile(v, 0.95), 1e-3f);
  camera_refit_ = true;

  VertexWrite out = write_vertices();
  sim_->load(out, bodies);
  out.close();
  steps_ = 0;
  frames_ = 0;
  energy_.reset();
  energy0_.reset();
  kernel_ms.clear();
  step_ms.clear();
  user_active_ = false;
  // The drift needs the energy at reset; measure it when tracking is on.
  if (energy_every > 0) measure_energy();
}

void NBodyScene::measure_energy() {
  CpuStopwatch sw;
  const nbody::Energy e = sim_->energy(*vertices_, cuda_stream(), params_, block_);
  energy_ms_ = sw.ms();
  energy_ = e;
  energy_step_ = steps_;
  if (!energy0_) {  // the reference: at reset when tracking was on, else the first measurement
    energy0_ = e;
    energy0_step_ = steps_;
  }
  energy_requested_ = false;
}

void NBodyScene::simulate(VertexWrite& out, const BlockShape& b) {
  last_steps_per_frame_ = std::max(1, steps_per_frame);
  if (run_user(out, b, last_steps_per_frame_)) return;
  sim_->step(out, params_, variant, fast_build, last_steps_per_frame_, b, ids_out_);
}

void NBodyScene::after_step() {
  ++frames_;
  if (energy_requested_ || (energy_every > 0 && frames_ % energy_every == 0)) measure_energy();
}

nlohmann::ordered_json NBodyScene::throughput() const {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  // The latest frame's time, not a recent median as the other scenes': it goes
  // with that frame's steps (last_steps_per_frame_), which change with the frame rate.
  const float ms = kernel_ms.latest();
  if (ms > 0) {
    const double inter = static_cast<double>(count_) * count_ * last_steps_per_frame_ / (ms * 1e-3);
    j["interactions_per_s"] = inter;
    j["gflops"] = inter * nbody::kFlopsPerInteraction * 1e-9;
  }
  return j;
}

void NBodyScene::describe(nlohmann::ordered_json& j) const {
  j["variant"] = nbody::to_string(variant);
  j["initial"] = nbody::to_string(initial_);
  j["steps_per_frame"] = last_steps_per_frame_;
  if (energy_ && energy0_) j["energy_drift"] = nbody::energy_drift(*energy_, *energy0_);
}

std::optional<insight::ElementLaunch> NBodyScene::element_launch() const {
  // The ids come from the integrating kernel (one body a thread, the block
  // flattened), whatever the force variant's own layout.
  const BlockShape flat{static_cast<int>(block_.threads()), 1, 1};
  return insight::make_launch(insight::Layout::Flat, count_, 1, count_, flat,
                              "nbody finish_kernel (integrate)");
}

std::string NBodyScene::grid_note() const {
  const long long threads = block_.threads();
  if (variant == Variant::Fast && sim_ && threads % 32 == 0) {
    try {  // asks the device for occupancy; a bad shape is reported by the step instead
      if (const auto l = sim_->fast_launch(block_)) {  // nullopt on the CPU
        const std::string each = std::to_string(l->per_thread) + " bodies a thread";
        if (l->pairs)
          return std::to_string(l->blocks) + " blocks, each pair once: sets of " +
                 std::to_string(l->set_bodies) + " bodies (" + each +
                 ") against the tiles after them";
        return std::to_string(l->blocks) + " blocks along the bodies, " + each + ", " +
               std::to_string(l->slices) + " j-slices";
      }
    } catch (const std::exception&) {
      cudaGetLastError();
    }
  }
  unsigned per_thread = 1;
  if (variant == Variant::Fast) {
    try {  // the scene's build, or the plan; a block it cannot run says why
      per_thread = nbody::fast_bodies_per_thread(block_, fast_build);
    } catch (const std::exception& e) {
      return e.what();
    }
  }
  const long long blocks =
      (count_ + static_cast<long long>(per_thread) * threads - 1) / (per_thread * threads);
  std::string s =
      std::to_string(blocks) + (blocks == 1 ? " block" : " blocks") + " along the bodies";
  if (variant == Variant::Fast) {
    s += ", " + std::to_string(per_thread) + " bodies a thread";
    if (threads % 32) return s + "; fast needs a multiple of 32 threads";
  }
  return s;
}

ParticleScene::CameraHome NBodyScene::camera_home() const {
  CameraHome h;
  h.target = {0.f, 0.f, 0.f};
  // A 45 degree field of view sees a radius r from about 2.4 r; leave a margin.
  h.distance = 3.0f * view_radius_;
  h.yaw = 0.5f;
  h.pitch = 0.5f;
  return h;
}

ParticleStyle NBodyScene::style() const {
  ParticleStyle st;
  st.palette = ParticleStyle::Palette::Speed;
  st.scalar_scale = 1.f / (speed_range_ * std::max(speed_scale, 1e-3f));
  // point_size is in pixels at the fitted camera distance (3 view radii).
  const float base = point_size * 3.f * view_radius_;
  st.point_size = count_ > (1u << 18) ? base * 0.35f : count_ > (1u << 14) ? base * 0.6f : base;
  st.opacity = count_ > (1u << 18) ? 0.35f : 0.8f;
  return st;
}

}  // namespace cv
