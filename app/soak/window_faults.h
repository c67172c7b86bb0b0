#pragma once
// Window faults on demand, for tests of the frame loop under Xvfb.
//
// CUDAVIZ_RESIZE_STORM=1 (Config::resize_storm): every pass of the frame loop resizes the
// window to the next of a list of odd sizes, 1x1 included, and every 16th pass
// iconifies it (restored on the next), so that resizes, tiny framebuffers and
// minimizing happen while scenes draw. The --frames summary says what ran.
#include <nlohmann/json.hpp>
#include <optional>

struct GLFWwindow;

namespace cv {

class ResizeStorm {
 public:
  // Once per pass of the frame loop, before the framebuffer size is read.
  void tick(GLFWwindow* window);
  // The loop found a zero-size framebuffer (minimized) and skipped drawing.
  void note_zero_framebuffer() { ++zero_size_passes_; }
  nlohmann::ordered_json summary() const;

 private:
  long long ticks_ = 0, resizes_ = 0, iconifies_ = 0, zero_size_passes_ = 0;
  bool iconified_ = false;
};


}  // namespace cv
