#pragma once
// Window faults on demand, for tests of the frame loop under Xvfb.
//
// CUDAVIZ_RESIZE_STORM=1: every pass of the frame loop resizes the
// window to the next of a list of odd sizes, 1x1 included, and every 16th pass
// iconifies it (restored on the next), so that resizes, tiny framebuffers and
// minimizing happen while scenes draw. The --frames summary says what ran.
#include <nlohmann/json.hpp>
#include <optional>

struct GLFWwindow;

namespace cv {

class ResizeStorm {
 public:
  static bool requested();
  // Once per pass of the frame loop, before the framebuffer size is read.
  void tick(GLFWwindow* window);
  // The loop found a zero-size framebuffer (minimized) and skipped drawing.
  void note_zero_framebuffer() { ++zero_size_passes_; }
  nlohmann::ordered_json summary() const;

 private:
  long long ticks_ = 0, resizes_ = 0, iconifies_ = 0, zero_size_passes_ = 0;
  bool iconified_ = false;
};

// CUDAVIZ_CLOSE_AT_FRAME=N: the frame loop asks the window to close after N
// frames, as the title bar's close button does (a lab may still be running).
// nullopt when unset; a malformed value is reported on stderr and ignored.
std::optional<long long> close_at_frame_from_env();

}  // namespace cv
