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
  return rebuild(
      std::to_string(count) + " particles", fountain::vbo_bytes(variant, count), sim_,
      [&] { return make_fountain_sim(backend_, count, variant); },
      [&] {
        count_ = count;
        variant_ = variant;
      },
      keep(count_, variant_, clock_));
}

void FountainScene::reset() {
  user_state_.active = false;  // yours starts again from the same initial state
  ++user_state_.generation;
  clock_ = fountain::FrameClock(kSeed);
  steps_ = 0;
  VertexWrite out = write_vertices();
  sim_->reset(out, params_, kSeed);
  out.close();
}

void FountainScene::simulate(VertexWrite& out, const BlockShape& b) {
  const fountain::Frame f = clock_.next(params_);
  if (wants_user() && run_user(out, b, f)) return;
  sim_->step(out, f, params_, b, ids_out_);
}

nlohmann::ordered_json FountainScene::throughput() const {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  const float ms = kernel_ms.recent_median(kRateFrames);
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
                              variant_ == Variant::Lean ? "fountain step_lean" : "fountain step_original");
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
