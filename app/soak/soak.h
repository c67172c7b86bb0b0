#pragma once
// `cudaviz --soak N`: a scripted N-frame run that cycles the scenes and their
// particle counts through the same paths the menu and the count slider use,
// samples host RSS and device memory at the end of every cycle, and reports
// whether memory grew after warm-up. Leaks show up as growth from cycle to
// cycle because every cycle allocates and frees the same buffers.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/device_info.h"
#include "scenes/scene_set.h"
#include "ui/panels.h"

namespace cv {

struct MemorySample {
  long long frame = 0;
  std::optional<uint64_t> host, gpu;
};

// Growth of the last sample over the first one after warm-up, in percent;
// nullopt when there are too few samples or no figures.
std::optional<double> growth_percent(const std::vector<MemorySample>& samples, size_t warmup,
                                     bool gpu);

class SoakRun {
 public:
  static constexpr double kMaxGrowthPercent = 1.0;

  SoakRun(long long frames, Backend backend);

  // Call at the top of every frame, before the app handles ui.requests.scene.
  void before_frame(long long frame, SceneSet& scenes, UiState& ui);
  // Call once after the last frame (takes the final sample).
  void finish(long long frames_done, SceneSet& scenes, UiState& ui);

  nlohmann::ordered_json summary() const;
  // Growth under the limit on host and device, every phase ran, no errors.
  bool passed() const;

 private:
  struct Phase {
    SceneKind kind;
    unsigned count;
  };
  void collect_error(SceneSet& scenes, UiState& ui);
  void sample(long long frame);
  size_t warmup_samples() const;

  Backend backend_;
  long long frames_;
  long long frames_per_phase_;
  std::vector<Phase> phases_;
  long long phase_ = -1;        // index into the schedule (monotonic; wraps through %)
  bool count_pending_ = false;  // the phase's count is applied once its scene is current
  long long switches_ = 0, recounts_ = 0, cycles_ = 0;
  std::vector<MemorySample> samples_;
  std::vector<std::string> errors_;
  nlohmann::ordered_json steps_ = nlohmann::ordered_json::object();  // per scene, at the end
};

}  // namespace cv
