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
  return rebuild(
      std::to_string(count) + " particles", swarm::vbo_bytes(count), sim_,
      [&] { return make_swarm_sim(backend_, count, variant_); }, [&] { count_ = count; },
      keep(count_, path_step_));
}

void SwarmScene::set_variant(Variant v) {
  variant_ = v;
  params_ = swarm::default_params(v);
  if (sim_) sim_->set_variant(v);
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
  user_state_.active = false;  // yours starts again from the initial state
  ++user_state_.generation;
  path_step_ = 0;
  steps_ = 0;
  const float3 t = next_target();
  path_step_ = 0;
  VertexWrite out = write_vertices();
  sim_->reset(out, params_, kSeed, t);
  out.close();
}

void SwarmScene::simulate(VertexWrite& out, const BlockShape& b) {
  const float3 target = next_target();
  if (run_user(out, b, target)) return;
  sim_->step(out, target, params_, b, ids_out_);
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
