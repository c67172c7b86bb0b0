#pragma once
// A scene that exists only in the tests: dots turning on a ring or a spiral,
// a CUDA kernel and a CPU loop over the same math (dots_math.h). It is added
// the way docs/architecture.md "Add a scene" says: its own files and one
// registration line (dots_scene.cpp), so every consumer of the registry must
// offer it without being told (tests/scene/run_dots_test.sh, test_dots_scene.cpp).
#include <memory>
#include <vector>

#include "scenes/particle_scene.h"
#include "scenes/scene_user_kernel.h"

namespace cv {

class DotsScene : public ParticleScene, public StudentKernelHost {
 public:
  static constexpr unsigned kMaxCount = 1u << 16;

  DotsScene(Backend backend, unsigned count, bool spiral, const TransferConfig& transfer = {});

  const char* name() const override { return "dots"; }
  std::string variant_name() const override { return spiral_ ? "spiral" : "ring"; }
  std::vector<ParamBinding> param_bindings() override {
    return {{"speed", &speed}, {"point_size", &point_size}, {"frozen", &frozen}};
  }
  std::optional<std::string> rebuild_for(const RebuildRequest& r, bool* rebuilt) override;
  std::optional<SceneKernel> kernel() const override;

  ParticleStyle style() const override;
  unsigned count() const override { return count_; }
  void reset() override { turn_ = 0.f; }
  CameraHome camera_home() const override;
  std::optional<ContentBounds> content_bounds() const override {
    return ContentBounds{{0.f, 0.f, 0.f}, {1.f, 1.f, 0.f}, false};
  }
  void describe(nlohmann::ordered_json& j) const override { j["variant"] = variant_name(); }
  void build_custom_ui(SceneUi& sui) override;

  // The student's kernel of the dots_turn template (dots_user_kernel.cpp).
  void set_user_kernel(usercode::UserKernel* uk) override { user_ = uk; }
  usercode::UserKernel* user_kernel_running() const override {
    return user_state_.active ? user_ : nullptr;
  }
  std::string user_note() const override { return user_state_.note; }

  float speed = 0.02f;  // radians a step
  float point_size = 6.f;
  bool frozen = false;

 protected:
  // The kernel into the target's device memory, or the CPU loop put() into it.
  void simulate(VertexWrite& out, const BlockShape& b) override;
  std::optional<std::string> check_block(const BlockShape& b) const override;

 private:
  std::optional<std::string> reconfigure(unsigned count, bool spiral);
  float next_turn();
  // One step by the loaded kernel; false: the built-in steps (none loaded, busy, a fault).
  bool run_user(VertexWrite& out, const BlockShape& b, float turn);

  unsigned count_ = 0;
  bool spiral_ = false;
  float turn_ = 0.f;
  std::unique_ptr<std::vector<float4>> host_;  // the CPU loop's frame (the "simulation")
  usercode::UserKernel* user_ = nullptr;
  scene_user::ParticleUser user_state_;
};

}  // namespace cv
