#include "scenes/pi_scene.h"

#include <cmath>
#include <stdexcept>

namespace cv {

PiPointsScene::PiPointsScene(Backend backend, unsigned count, const TransferConfig& transfer)
    : ParticleScene(backend, transfer) {
  block_ = BlockShape{256, 1, 1};
  block_2d_ = false;
  if (auto err = reconfigure(count)) throw std::invalid_argument(*err);
}

std::optional<std::string> PiPointsScene::reconfigure(unsigned count) {
  if (count < 1 || count > kMaxCount)
    return "point count " + std::to_string(count) + " is outside [1, " + std::to_string(kMaxCount) +
           "]";
  return rebuild(
      std::to_string(count) + " points", static_cast<size_t>(count) * sizeof(float4), sim_,
      [&] { return make_pi_sim(backend_, count); }, [&] { count_ = count; },
      keep(count_, dirty_, counted_));
}

std::optional<std::string> PiPointsScene::check_block(const BlockShape& b) const {
  if (b.y != 1 || b.z != 1)
    return "the pi points kernel uses 1D blocks: give x only (" + to_string(b) + " has y or z > 1)";
  return std::nullopt;
}

void PiPointsScene::reset() {
  steps_ = 0;
  dirty_ = true;  // the points are written by the next step(), timed like a frame of the others
  counted_ = false;
}

void PiPointsScene::resample() {
  ++seed_;
  reset();
}

void PiPointsScene::simulate(VertexWrite& out, const BlockShape& b) {
  sim_->write(out, seed_, b);
}

void PiPointsScene::after_step() {
  dirty_ = false;
  inside_ = sim_->inside(*vertices_, cuda_stream());
  counted_ = true;
}

std::optional<double> PiPointsScene::estimate() const {
  if (!counted_ || count_ == 0) return std::nullopt;
  return 4.0 * static_cast<double>(inside_) / count_;
}

nlohmann::ordered_json PiPointsScene::throughput() const {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  const float ms = kernel_ms.recent_median(kRateFrames);
  if (ms > 0) j["samples_per_s"] = count_ / (ms * 1e-3);
  return j;
}

void PiPointsScene::describe(nlohmann::ordered_json& j) const {
  j["seed"] = seed_;
  if (auto e = estimate()) {
    j["pi_estimate"] = *e;
    j["abs_error"] = std::fabs(*e - M_PI);
  }
}

std::string PiPointsScene::grid_note() const {
  const long long t = block_.threads();
  return std::to_string((count_ + t - 1) / t) + " blocks, one point a thread";
}

std::vector<SceneDecor::Polyline> PiPointsScene::overlay() const {
  Polyline arc, square;
  const int segments = 96;
  for (int i = 0; i <= segments; ++i) {
    const float a = static_cast<float>(i) / segments * static_cast<float>(M_PI) * 0.5f;
    arc.points.push_back({std::cos(a), std::sin(a), 0.01f});
  }
  arc.colour = {0.95f, 0.95f, 1.f, 1.f};
  square.points = {{0, 0, 0.01f}, {1, 0, 0.01f}, {1, 1, 0.01f}, {0, 1, 0.01f}, {0, 0, 0.01f}};
  square.colour = {0.5f, 0.55f, 0.65f, 1.f};
  return {square, arc};
}

ParticleScene::CameraHome PiPointsScene::camera_home() const {
  CameraHome h;
  h.target = {0.5f, 0.5f, 0.f};
  h.distance = 2.3f;
  h.yaw = 0.f;
  h.pitch = 0.f;
  return h;
}

ParticleStyle PiPointsScene::style() const {
  ParticleStyle st;
  st.palette = ParticleStyle::Palette::InsideOutside;
  st.scalar_scale = 1.f;
  st.point_size = count_ > 200000 ? point_size * 0.4f : point_size;
  st.opacity = count_ > 200000 ? 0.5f : 0.9f;
  return st;
}

}  // namespace cv
