#pragma once
// The fountain (document 004) as a scene: lean or original variant, CUDA or CPU twin.
#include <memory>

#include "fountain/fountain.h"
#include "scenes/fountain_sim.h"
#include "scenes/particle_scene.h"
#include "scenes/scene_user_kernel.h"
#include "usercode/client/runner_client.h"
#include "usercode/templates/template_spec.h"

namespace cv {

class FountainScene : public ParticleScene, public StudentKernelHost, public SceneDecor {
 public:
  static constexpr unsigned kDefaultCount = 256 * 256;
  static constexpr unsigned kMaxCount = 1u << 26;  // 64M; the UI offers up to 16M+

  FountainScene(Backend backend, unsigned count = kDefaultCount,
                fountain::Variant variant = fountain::Variant::Lean,
                const TransferConfig& transfer = {});

  const char* name() const override { return "fountain"; }
  // Hooks and the registry entry: scenes/fountain_scene_entry.cpp.
  std::string variant_name() const override { return fountain::to_string(variant_); }
  std::vector<ParamBinding> param_bindings() override { return bind_params(params_, point_size); }
  static std::vector<ParamBinding> bind_params(fountain::Params& p, float& point_size);
  std::optional<std::string> rebuild_for(const RebuildRequest& r, bool* rebuilt) override;
  std::optional<SceneKernel> kernel() const override;
  void build_custom_ui(SceneUi& sui) override;  // scenes/fountain_scene_ui.cpp
  ParticleStyle style() const override;
  unsigned count() const override { return count_; }
  void reset() override;
  Floor floor() const override { return {params_.table_radius, 0.f}; }
  std::optional<ContentBounds> content_bounds() const override;
  CameraHome camera_home() const override {
    CameraHome h;
    h.pitch = 0.42f;  // high enough that the table's far half shows the spray's landing
    return h;
  }
  nlohmann::ordered_json throughput() const override;
  void describe(nlohmann::ordered_json& j) const override {
    j["variant"] = fountain::to_string(variant_);
  }
  std::string grid_note() const override;
  std::optional<insight::ElementLaunch> element_launch() const override;

  fountain::Variant variant() const { return variant_; }
  fountain::Params& params() { return params_; }

  // Rebuilds buffers for a new count or variant. On failure (bad count,
  // allocation failure) returns the reason and keeps the current state.
  std::optional<std::string> reconfigure(unsigned count, fountain::Variant variant);

  float point_size = 40.f;  // pixels at distance 1

  void set_user_kernel(usercode::UserKernel* uk) override { user_ = uk; }
  // Why the student's kernel is not running in this scene now ("" when it is / none).
  std::string user_note() const override { return user_state_.note; }
  // The student's kernel when it made the last step (the occupancy panel shows it), else null.
  usercode::UserKernel* user_kernel_running() const override {
    return user_state_.active ? user_ : nullptr;
  }

 protected:
  bool ping_pong() const override { return true; }
  // While your kernel runs: a block above its own limit (registers, __launch_bounds__) is refused.
  std::optional<std::string> check_block(const BlockShape& b) const override;
  void simulate(VertexWrite& out, const BlockShape& b) override;

 private:
  unsigned count_;
  fountain::Variant variant_;
  fountain::Params params_;
  fountain::FrameClock clock_{1};
  std::unique_ptr<FountainSim> sim_;  // CUDA or CPU, made with the vertex target

  static constexpr uint64_t kSeed = 2024;  // the initial state and the frames' random numbers
  // The student's kernel (scenes/fountain_user_kernel.cpp): true when it made this step.
  bool wants_user() const;
  void build_user_kernel_ui();  // scenes/fountain_scene_ui.cpp
  usercode::Workload user_workload(const fountain::Frame& f, const BlockShape& b) const;
  // One step of yours into `out` (false: it could not run, the built-in steps).
  bool run_user(VertexWrite& out, const BlockShape& b, const fountain::Frame& f);
  usercode::UserKernel* user_ = nullptr;
  scene_user::ParticleUser user_state_;
};

}  // namespace cv
