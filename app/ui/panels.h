#pragma once
// The ImGui panels of the window. They read and edit the scene and the UI
// state; they never call kernels directly.
#include <optional>
#include <string>

#include "scenes/fountain_scene.h"
#include "timing/frame_timers.h"

namespace cv {

// What the panels ask the frame loop to do, and what they show.
struct UiState {
  bool paused = false;
  bool step_once = false;
  bool reset_requested = false;
  bool screenshot_requested = false;

  int block_x = 16, block_y = 16;  // the sliders; applied only when valid
  std::string block_message;       // why the last shape was refused
  int count_input = 256 * 256;
  std::string count_message;
  std::string error_message;       // a failed step: call and error name

  History fps{240}, frame_ms{240}, draw_ms{240};
};

void draw_control_panel(FountainScene& scene, UiState& ui);
void draw_timing_panel(FountainScene& scene, UiState& ui);

}  // namespace cv
