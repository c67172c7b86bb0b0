#include "scenes/fountain_scene.h"

#include <algorithm>
#include <stdexcept>

namespace cv {

using fountain::Variant;

FountainScene::FountainScene(Backend backend, unsigned count, Variant variant,
                             const TransferConfig& transfer)
    : ParticleScene(backend, transfer), count_(0), variant_(variant) {
  if (auto err = reconfigure(count, variant)) throw std::invalid_argument(*err);
}

std::optional<std::string> FountainScene::reconfigure(unsigned count, Variant variant) {
  if (count < 1 || count > kMaxCount)
    return "particle count " + std::to_string(count) + " is outside [1, " +
           std::to_string(kMaxCount) + "]";
  // Build the new buffer and simulation aside; swap in only when all succeeded.
  std::unique_ptr<InteropBuffer> buffer;
  std::unique_ptr<fountain::FountainGpu> gpu;
  std::unique_ptr<fountain::FountainCpu> cpu;
  const std::string what = std::to_string(count) + " particles";
  if (auto err = attempt_or_undo(what, [&] {
        buffer = make_buffer(fountain::vbo_bytes(variant, count));
        if (backend_ == Backend::Cuda)
          gpu = std::make_unique<fountain::FountainGpu>(count, variant);
        else
          cpu = std::make_unique<fountain::FountainCpu>(count, variant);
      }))
    return err;
  // Swap in, then reset: the CPU twin allocates its state there. If that fails,
  // the previous buffers, simulation and clock come back untouched.
  const unsigned old_count = count_;
  const Variant old_variant = variant_;
  const fountain::FrameClock old_clock = clock_;
  const long long old_steps = steps_;
  auto swap_all = [&] {
    std::swap(buffer_, buffer);
    std::swap(gpu_, gpu);
    std::swap(cpu_, cpu);
  };
  swap_all();
  count_ = count;
  variant_ = variant;
  auto roll_back = [&] {
    swap_all();
    count_ = old_count;
    variant_ = old_variant;
    clock_ = old_clock;
    steps_ = old_steps;
  };
  return attempt_or_undo(
      what, [&] { reset(); }, roll_back);
}

void FountainScene::reset() {
  user_active_ = false;  // yours starts again from the same initial state
  ++buffer_generation_;
  clock_ = fountain::FrameClock(kSeed);
  steps_ = 0;
  write_buffer([&](float4* vbo, cudaStream_t s) {
    if (gpu_)
      gpu_->reset(vbo, params_, kSeed, s);
    else
      cpu_->reset(params_, kSeed);
  });
}

void FountainScene::simulate_gpu(const float4* source, float4* vbo, cudaStream_t s,
                                      const BlockShape& b) {
  const fountain::Frame f = clock_.next(params_);
  if (wants_user() && run_user_gpu(source, vbo, s, b, f)) return;
  gpu_->step_from(source, vbo, f, params_, b, s, ids_out_);
}

void FountainScene::simulate_cpu() {
  const fountain::Frame f = clock_.next(params_);
  if (wants_user() && run_user_cpu(f)) return;
  cpu_->step(f, params_);
}

const void* FountainScene::cpu_vertices() const {
  return user_active_ ? user_vertices_.data() : cpu_->vbo().data();
}

nlohmann::ordered_json FountainScene::throughput() const {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  const float ms = kernel_ms.latest();
  if (ms > 0) {
    j["particles_per_s"] = count_ / (ms * 1e-3);
    j["gb_per_s"] = static_cast<double>(fountain::bytes_per_particle_step(variant_)) * count_ /
                    (ms * 1e-3) * 1e-9;
  }
  return j;
}

std::optional<insight::ElementLaunch> FountainScene::element_launch() const {
  const auto g = fountain::make_grid(count_);
  return insight::make_launch(insight::Layout::Grid2d, g.width, g.height, count_, block_,
                              variant_ == Variant::Lean ? "fountain step_lean" : "fountain step_seed");
}

std::string FountainScene::grid_note() const {
  const auto g = fountain::make_grid(count_);
  return "grid " + std::to_string((g.width + block_.x - 1) / block_.x) + "x" +
         std::to_string((g.height + block_.y - 1) / block_.y) + " blocks over " +
         std::to_string(g.width) + "x" + std::to_string(g.height) + " particles";
}

std::optional<ContentBounds> FountainScene::content_bounds() const {
  // The highest jet (a launch at v rises v^2 / (2 g)) over the table top or the
  // spray, whichever is wider: a particle drifts at most spread / 2 a step
  // along each axis from the emitter's circle, for max_age steps (the last
  // 15% of that reach is a thin rim of the oldest, left out).
  const fountain::Params& p = params_;
  const float v = p.launch_speed + p.launch_jitter;
  const float top = p.gravity > 0.f ? std::min(v * v / (2.f * p.gravity), 50.f) : 5.f;
  const float spray = 0.85f * (p.emitter_radius + 0.5f * p.spread * p.max_age);
  const float r = std::clamp(std::max(p.table_radius, spray), 0.1f, 50.f);
  return ContentBounds{{-r, 0.f, -r}, {r, top, r}, true};
}

ParticleStyle FountainScene::style() const {
  ParticleStyle st;
  st.palette = ParticleStyle::Palette::FountainAge;
  st.scalar_scale = 1.f / params_.max_age;
  st.colours_follow_positions = fountain::stores_colour(variant_);
  // Many particles overlap: shrink and dim them so dense jets don't saturate.
  st.point_size = count_ > (1u << 20) ? point_size * 0.3f : point_size;
  st.opacity = count_ > (1u << 20) ? 0.35f : 0.8f;
  st.hide_below = fountain::kHiddenY * 0.5f;
  return st;
}

}  // namespace cv
