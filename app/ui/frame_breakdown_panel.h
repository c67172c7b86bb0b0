#pragma once
// The "frame breakdown" window: fps beside a stacked plot of where a frame's
// time goes: simulate (the kernel, CUDA events; the CPU step on the CPU
// backend), map/unmap or copy (the rest of the step), draw (GL timer query)
// and UI (CPU time to build and render the ImGui frame).
#include "timing/frame_timers.h"
#include "ui/panels.h"
#include "ui/tuning_layout.h"

namespace cv {

class FrameBreakdownPanel {
 public:
  // CPU milliseconds of the last ImGui frame (NewFrame to RenderDrawData).
  void record_ui_ms(float ms) { ui_ms_ = ms; }
  // Samples this frame's parts and draws the window.
  void draw(const ParticleScene& scene, const UiState& ui, ui::Layout& layout);
  void open() { window_.expand(); }

 private:
  History sim_{240}, xfer_{240}, draw_{240}, ui_{240};
  History runner_{240};  // the wait for the runner beyond the student's kernel
  long long last_steps_ = -1;
  float ui_ms_ = 0;
  ui::ToolTab window_{ui::Tool::Frames};  // its tab in the tool area (ui/layout.h)
};

}  // namespace cv
