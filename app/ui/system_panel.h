#pragma once
// The control panel's "system" section: the findings of `cudaviz doctor`
// (driver, GPUs and the code this binary holds for them, OpenGL, display
// server, interop) for the running app, each problem with its fix.
#include <vector>

#include "config/config.h"
#include "system/system_findings.h"

namespace cv::ui {

class SystemSection {
 public:
  // Probes with the app's own GL context (current at construction: the
  // Context is built after the window); `config` is the environment as main()
  // read it. The probe registers a test buffer, so it runs here and on "check
  // again", never from a draw call by itself.
  explicit SystemSection(const Config& config);
  // Draws the "system" header in the current ImGui window (open from the start
  // when a finding is a problem) and, when a GPU is there but this build cannot
  // use it, the whole sentence above it; "check again" re-probes.
  void draw();

 private:
  void probe();

  Config config_;
  sys::Facts facts_;
  std::vector<sys::Finding> found_;
};

}  // namespace cv::ui
