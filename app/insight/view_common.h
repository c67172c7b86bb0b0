#pragma once
// What the "inside the kernel" views share: where a view window opens, its
// "what to notice" text, the categorical colours of blocks, warps and lanes
// (the same hues as the particle shader's colour by launch), and a note for
// what needs a GPU on the CPU backend.
#include <imgui.h>

#include <cstdint>
#include <string>

#include "common/device_info.h"
#include "ui/presentation.h"
#include "ui/tuning_layout.h"

namespace cv {
class ParticleScene;
}

namespace cv::insight_ui {

// The frame's inputs to a view.
struct ViewContext {
  ParticleScene& scene;
  Backend backend;
  ui::Layout& layout;  // the views are tabs of the tool area
};

// A view's window: a tab of the tool area (ui/layout.h), so it never covers
// the side panels or another tool; opening it closes the tab that was open.
class ViewWindow {
 public:
  ViewWindow(ui::Tool tool, const char* title) : tab_(tool), title_(title) {}
  void open() { tab_.expand(), open_ = true; }
  // Whether the tab was open at the last draw (or was asked to open since).
  bool is_open() const { return open_; }
  // Begins the window when its tab is the open one; call end() only when true.
  bool begin(ui::Layout& layout) { return open_ = tab_.begin(layout, title_); }
  void end(ui::Layout& layout) { layout.end_tool(); }

 private:
  ui::ToolTab tab_;
  const char* title_;
  bool open_ = false;
};

// The golden-ratio hue of id (as shaders/particles.vert's launch_colour()).
ImU32 id_colour(uint32_t id, float alpha = 1.f);
ImU32 lane_colour(unsigned lane, float alpha = 1.f);
// A dim line: "needs a GPU: <why>" on the CPU backend.
void needs_gpu(const char* what);
// Collapsible "what to notice" text.
void notice(const char* text);

}  // namespace cv::insight_ui
