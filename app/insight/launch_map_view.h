#pragma once
// Launch map (--panel launch): the current scene's launch as a grid of block
// tiles (tail blocks marked), one selected block's threads grouped into warps
// (threads that exit early in grey), and the numbers beside: threads launched,
// working and idle, warps, resident blocks per SM, waves and the last wave's fill.
#include <optional>

#include "insight/launch_model.h"
#include "insight/view_common.h"

namespace cv::insight_ui {

// Resident blocks of the scene's kernel per SM and the SM count, or why not.
struct Residency {
  int blocks_per_sm = 0, sm_count = 0;
  std::string note;  // where the numbers come from, or why there are none
};
Residency scene_residency(const ParticleScene& scene, Backend backend);

class LaunchMapView {
 public:
  void open() { window_.open(); }
  bool is_open() const { return window_.is_open(); }
  void draw(const ViewContext& ctx);

 private:
  void draw_numbers(const insight::LaunchSummary& s, const Residency& r);
  void draw_tiles(const insight::ElementLaunch& l, const insight::LaunchSummary& s);
  void draw_block(const insight::ElementLaunch& l);

  ViewWindow window_{ui::Tool::Launch, "launch map"};
  unsigned long long selected_ = 0;
  // The summary walks every block: recomputed only when the launch changes.
  std::optional<insight::ElementLaunch> cached_launch_;
  int cached_resident_ = -1;
  insight::LaunchSummary summary_;
};

}  // namespace cv::insight_ui
