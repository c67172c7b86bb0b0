#pragma once
// The Monte-Carlo pi lab's sample points (documents 000, 003) drawn in the unit
// square: inside the quarter circle green, outside red, through the same
// vertex-buffer path as the simulations (CUDA writes into the mapped VBO; the
// CPU backend uploads). Static until resampled.
#include <optional>
#include <vector>

#include "scenes/particle_scene.h"
#include "scenes/pi_sim.h"

namespace cv {

class PiPointsScene : public ParticleScene, public SceneDecor {
 public:
  static constexpr unsigned kDefaultCount = 20000;
  static constexpr unsigned kMaxCount = 1u << 24;

  PiPointsScene(Backend backend, unsigned count = kDefaultCount,
                const TransferConfig& transfer = {});

  const char* name() const override { return "pi"; }
  // Hooks and the registry entry: scenes/pi_scene_entry.cpp.
  std::vector<ParamBinding> param_bindings() override { return {{"point_size", &point_size}}; }
  std::optional<std::string> rebuild_for(const RebuildRequest& r, bool* rebuilt) override;
  std::optional<SceneKernel> kernel() const override;
  void build_custom_ui(SceneUi& sui) override;  // scenes/pi_scene_ui.cpp
  ParticleStyle style() const override;
  unsigned count() const override { return count_; }
  void reset() override;
  CameraHome camera_home() const override;
  // The unit square the samples fall in (and the quarter circle over it).
  std::optional<ContentBounds> content_bounds() const override {
    return ContentBounds{{0.f, 0.f, 0.f}, {1.f, 1.f, 0.f}, false};
  }
  bool needs_step() const override { return dirty_; }
  nlohmann::ordered_json throughput() const override;
  void describe(nlohmann::ordered_json& j) const override;
  std::vector<Polyline> overlay() const override;
  std::string grid_note() const override;

  std::optional<std::string> reconfigure(unsigned count);
  // New points from a new seed on the next step.
  void resample();
  uint64_t seed() const { return seed_; }

  // From the points on screen: 4 * inside / count (nullopt until counted).
  std::optional<double> estimate() const;
  unsigned long long inside() const { return inside_; }

  float point_size = 5.f;

 protected:
  void simulate(VertexWrite& out, const BlockShape& b) override;
  void after_step() override;
  std::optional<std::string> check_block(const BlockShape& b) const override;

 private:
  unsigned count_ = 0;
  uint64_t seed_ = 3;
  bool dirty_ = true;
  bool counted_ = false;
  unsigned long long inside_ = 0;
  std::unique_ptr<PiSim> sim_;  // CUDA or CPU, made with the vertex target
};

}  // namespace cv
