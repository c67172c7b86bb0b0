#pragma once
// Occupancy curve (--panel occupancy-curve): the theoretical occupancy of the
// scene's kernel for every block size from one warp to the limit in steps of a
// warp, coloured by what limits it (insight/occupancy_curve.h over
// common/occupancy.h), with the kernel time measured for the same sizes by a
// block-shape sweep (tuning/sweep_worker.h) on the same chart.
#include <string>
#include <vector>

#include "insight/occupancy_curve.h"
#include "insight/view_common.h"
#include "tuning/sweep_worker.h"

namespace cv::insight_ui {

class OccupancyCurveView {
 public:
  // Opened from the command line: also measures at once (a scripted run's picture shows the times).
  void open() {
    window_.open();
    auto_sweep_ = true;
  }
  bool measuring() const { return sweep_.running(); }
  bool is_open() const { return window_.is_open(); }
  void draw(const ViewContext& ctx);
  void shutdown() { sweep_.cancel(), sweep_.join(); }

 private:
  void start_sweep(const ViewContext& ctx, const std::vector<insight::CurvePoint>& curve,
                   bool two_d);
  void draw_chart(const std::vector<insight::CurvePoint>& curve);

  ViewWindow window_{ui::Tool::OccupancyCurve, "occupancy curve"};
  tuning::SweepWorker sweep_;
  std::string sweep_error_, swept_for_;
  bool auto_sweep_ = false;
};

}  // namespace cv::insight_ui
