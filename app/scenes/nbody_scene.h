#pragma once
// All-pairs gravity (document 004, GPU Gems 3) as a scene: three force variants
// switchable live, 1D blocks, three initial conditions, colour by speed,
// interactions/s and GFLOP/s from the kernel time, and the energy drift.
#include <memory>
#include <optional>

#include "nbody/nbody.h"
#include "scenes/nbody_sim.h"
#include "scenes/nbody_user_kernel.h"
#include "scenes/particle_scene.h"

namespace cv {

class NBodyScene : public ParticleScene, public StudentKernelHost, public SceneChoices {
 public:
  static constexpr unsigned kMaxCountGpu = 1u << 22;  // 4M: a step is ~10 s with the original kernel
  // The CPU twin is O(N^2) on a few cores: beyond this a frame takes seconds.
  static constexpr unsigned kMaxCountCpu = 1u << 15;
  // Energy every k frames is on by default only up to this many bodies (O(N^2)).
  static constexpr unsigned kAutoEnergyLimit = 1u << 16;
  static unsigned default_count(Backend b) { return b == Backend::Cuda ? 1u << 16 : 2048u; }
  static unsigned max_count(Backend b) { return b == Backend::Cuda ? kMaxCountGpu : kMaxCountCpu; }

  NBodyScene(Backend backend, unsigned count, nbody::Variant variant = nbody::Variant::Fast,
             nbody::Initial initial = nbody::Initial::Galaxies,
             const TransferConfig& transfer = {});

  const char* name() const override { return "nbody"; }
  // Hooks and the registry entry: scenes/nbody_scene_entry.cpp.
  std::string variant_name() const override { return nbody::to_string(variant); }
  std::vector<ParamBinding> param_bindings() override {
    return bind_params(params_, point_size, speed_scale, steps_per_frame, energy_every);
  }
  static std::vector<ParamBinding> bind_params(nbody::Params& p, float& point_size,
                                               float& speed_scale, int& steps_per_frame,
                                               int& energy_every);
  std::map<std::string, std::string> choices() const override;
  std::optional<std::string> set_choice(const std::string& key, const std::string& value,
                                        const BlockShape& next_block) override;
  std::optional<std::string> rebuild_for(const RebuildRequest& r, bool* rebuilt) override;
  std::optional<SceneKernel> kernel() const override;
  void build_custom_ui(SceneUi& sui) override;  // scenes/nbody_scene_ui.cpp
  ParticleStyle style() const override;
  unsigned count() const override { return count_; }
  void reset() override;
  CameraHome camera_home() const override;
  std::optional<ContentBounds> content_bounds() const override {
    const float r = view_radius_;  // 95% of the bodies, at reset
    return ContentBounds{{-r, -r, -r}, {r, r, r}, true};
  }
  nlohmann::ordered_json throughput() const override;
  void describe(nlohmann::ordered_json& j) const override;
  std::string grid_note() const override;
  std::optional<insight::ElementLaunch> element_launch() const override;

  // Rebuilds for a new count or initial condition (then resets). On failure
  // returns the reason and keeps the current state.
  std::optional<std::string> reconfigure(unsigned count, nbody::Initial initial);

  nbody::Variant variant = nbody::Variant::Fast;  // applies from the next step
  // The fast variant's build ("" : the plan; else a fast_tile_names() entry
  // that runs the current block), from the next step.
  std::string fast_build;
  nbody::Initial initial() const { return initial_; }
  nbody::Params& params() { return params_; }
  int steps_per_frame = 1;

  // Energy: on demand, and every `energy_every` frames when > 0.
  int energy_every = 0;
  void request_energy() { energy_requested_ = true; }
  const std::optional<nbody::Energy>& energy() const { return energy_; }
  const std::optional<nbody::Energy>& energy_at_reset() const { return energy0_; }
  long long energy_step() const { return energy_step_; }  // step the latest energy belongs to
  long long energy0_step() const {
    return energy0_step_;
  }  // step of the drift's reference (0: reset)
  float energy_ms() const { return energy_ms_; }
  // Measures now (blocking); throws like a step does.
  void measure_energy();

  float point_size = 4.f;   // pixels at the fitted distance
  float speed_scale = 1.f;  // multiplies the auto-fitted palette range

  // The student's force kernel (template nbody_kernel, scenes/nbody_user_kernel.cpp):
  // it computes the accelerations, the scene integrates them.
  void set_user_kernel(usercode::UserKernel* uk) override { user_ = uk; }
  std::string user_note() const override { return user_note_; }
  usercode::UserKernel* user_kernel_running() const override {
    return user_active_ ? user_ : nullptr;
  }

 protected:
  bool ping_pong() const override { return true; }
  void simulate(VertexWrite& out, const BlockShape& b) override;
  void after_step() override;
  std::optional<std::string> check_block(const BlockShape& b) const override;

 private:
  unsigned count_ = 0;
  nbody::Initial initial_;
  nbody::Params params_;
  float view_radius_ = 1.f;  // 95% of the bodies lie within, at reset
  float speed_range_ = 1.f;  // 95th percentile speed at reset
  int last_steps_per_frame_ = 1;
  long long frames_ = 0;
  bool energy_requested_ = false;
  std::optional<nbody::Energy> energy_, energy0_;
  long long energy_step_ = 0, energy0_step_ = 0;
  float energy_ms_ = 0;
  std::unique_ptr<NBodySim> sim_;  // CUDA or CPU, made with the vertex target

  // `steps` steps of yours into `out` (false: none ran, the built-in steps).
  bool run_user(VertexWrite& out, const BlockShape& b, int steps);
  usercode::UserKernel* user_ = nullptr;
  bool user_active_ = false;  // the last step was yours
  std::string user_note_;
  NBodyUserForces user_forces_;  // yours' bodies and accelerations, in place on the CUDA backend
};

}  // namespace cv
