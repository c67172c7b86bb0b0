#pragma once
// The "inside the kernel" views together: launch map, memory accesses,
// reduction step by step, race lab and occupancy curve, plus the colour-by
// choice, and the --panel names that open them.
#include <optional>
#include <string>
#include <vector>

#include "insight/explain_view.h"
#include "insight/launch_map_view.h"
#include "insight/memory_view.h"
#include "insight/occupancy_curve_view.h"
#include "insight/race_view.h"
#include "insight/reduction_view.h"

namespace cv::ui {
class Layout;
}

namespace cv::insight_ui {

class InsightUi {
 public:
  explicit InsightUi(Backend backend) : backend_(backend) {}
  // launch, memory, reduction, race, occupancy-curve.
  static const std::vector<std::string>& panel_names();
  // Opens that view; nullopt when done, else why not (not one of ours).
  std::optional<std::string> open_panel(const std::string& name);
  // The open view, as a tab of the tool area (the colour-by choice is in
  // every scene's own panel).
  void draw(ParticleScene& scene, ui::Layout& layout);
  // A measurement a scripted run's last picture should wait for.
  bool busy() const {
    return curve_.measuring() || (kernel_panel_ && explain_busy(*kernel_panel_));
  }
  void shutdown() { curve_.shutdown(); }
  static bool explain_busy(const KernelPanel& p);
  // The kernel tab whose "explain" results the explain view draws.
  void set_kernel_panel(const KernelPanel* p) { kernel_panel_ = p; }

 private:
  Backend backend_;
  LaunchMapView launch_;
  MemoryView memory_;
  ReductionView reduction_;
  RaceView race_;
  OccupancyCurveView curve_;
  ExplainView explain_;
  const KernelPanel* kernel_panel_ = nullptr;
};

}  // namespace cv::insight_ui
