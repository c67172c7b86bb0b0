#pragma once
// The swarm of document 004 as a scene: particles steer towards a target that moves
// on its own path or follows the mouse; the sparkler variant pushes them away
// and lets them fall. CUDA kernel or CPU twin, colour by age.
#include <memory>
#include <optional>

#include "scenes/particle_scene.h"
#include "scenes/scene_user_kernel.h"
#include "scenes/swarm_sim.h"
#include "swarm/swarm.h"

namespace cv {

class SwarmScene : public ParticleScene,
                   public StudentKernelHost,
                   public SceneDecor,
                   public PointerFollower {
 public:
  static constexpr unsigned kDefaultCount = 256 * 256;
  static constexpr unsigned kMaxCount = 1u << 26;
  static constexpr float kFloorHeight = -0.9f;

  SwarmScene(Backend backend, unsigned count = kDefaultCount,
             swarm::Variant variant = swarm::Variant::Swarm,
             const TransferConfig& transfer = {});

  const char* name() const override { return "swarm"; }
  // Hooks and the registry entry: scenes/swarm_scene_entry.cpp.
  std::string variant_name() const override { return swarm::to_string(variant_); }
  std::vector<ParamBinding> param_bindings() override {
    return bind_params(params_, point_size, follow_pointer);
  }
  static std::vector<ParamBinding> bind_params(swarm::Params& p, float& point_size,
                                               bool& follow_pointer);
  std::optional<std::string> rebuild_for(const RebuildRequest& r, bool* rebuilt) override;
  std::optional<SceneKernel> kernel() const override;
  void build_custom_ui(SceneUi& sui) override;  // scenes/swarm_scene_ui.cpp
  ParticleStyle style() const override;
  unsigned count() const override { return count_; }
  void reset() override;
  CameraHome camera_home() const override;
  Floor floor() const override { return {1.3f, kFloorHeight}; }
  std::optional<ContentBounds> content_bounds() const override {
    // The floor disc and the space the target's path (radius 0.6) and its
    // swarm sweep above it.
    return ContentBounds{{-1.3f, kFloorHeight, -1.3f}, {1.3f, 0.9f, 1.3f}, true};
  }
  void describe(nlohmann::ordered_json& j) const override;
  std::string grid_note() const override;
  std::optional<insight::ElementLaunch> element_launch() const override;

  swarm::Variant variant() const { return variant_; }
  // Keeps the particles; loads the variant's default parameters.
  void set_variant(swarm::Variant v);
  swarm::Params& params() { return params_; }

  std::optional<std::string> reconfigure(unsigned count);

  // Where the target is: on its own path, or, with follow_pointer, where the
  // pointer meets the plane through the swarm's centre (on_pointer).
  bool follow_pointer = false;
  void on_pointer(const Pointer& p) override;
  glm::vec3 target() const { return target_; }
  float point_size = 10.f;

  // The student's kernel (templates swarm_kernel and swarm_particle,
  // scenes/swarm_user_kernel.cpp), run instead of the built-in.
  void set_user_kernel(usercode::UserKernel* uk) override { user_ = uk; }
  std::string user_note() const override { return user_state_.note; }
  usercode::UserKernel* user_kernel_running() const override {
    return user_state_.active ? user_ : nullptr;
  }

 protected:
  bool ping_pong() const override { return true; }
  void simulate(VertexWrite& out, const BlockShape& b) override;
  std::optional<std::string> check_block(const BlockShape& b) const override;

 private:
  float3 next_target();

  unsigned count_ = 0;
  swarm::Variant variant_;
  swarm::Params params_;
  uint64_t path_step_ = 0;
  glm::vec3 pointer_{0.f, 0.f, 0.f};
  glm::vec3 target_{0.f, 0.f, 0.f};
  std::unique_ptr<SwarmSim> sim_;  // CUDA or CPU, made with the vertex target

  // One step of yours into `out` towards `target` (false: it could not run, the built-in steps).
  bool run_user(VertexWrite& out, const BlockShape& b, float3 target);
  usercode::UserKernel* user_ = nullptr;
  scene_user::ParticleUser user_state_;
  uint64_t user_steps_ = 0;  // steps of yours since it (re)started: its random keys
};

}  // namespace cv
