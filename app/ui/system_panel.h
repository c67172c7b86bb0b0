#pragma once
// The control panel's "system" section: the findings of `cudaviz doctor`
// (driver, GPUs and the code this binary holds for them, OpenGL, display
// server, interop) for the running app, each problem with its fix.
namespace cv::ui {

// Draws the "system" header in the current ImGui window (open from the start
// when a finding is a problem) and, when a GPU is there but this build cannot
// use it, the whole sentence above it. Probes once with the app's own GL
// context; "check again" re-probes.
void draw_system_section();

}  // namespace cv::ui
