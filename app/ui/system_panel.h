#pragma once
// The control panel's "system" section: the findings of `cudaviz doctor`
// (driver, GPUs and the code this binary holds for them, OpenGL, display
// server, interop) for the running app, each problem with its fix.
namespace cv::ui {

// Draws a collapsed "system" header in the current ImGui window. Probes once
// (on first open; "check again" re-probes) with the app's own GL context.
void draw_system_section();

}  // namespace cv::ui
