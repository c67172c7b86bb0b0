#pragma once
// The window layout, computed every frame from the framebuffer size and the
// UI scale (ImGui 1.86 has no docking): the scene panel down the left side,
// the plots down the right, and one tool area along the bottom whose tabs
// (the tools of widgets/tool_names.h) open one at a time above the tab
// strip. Panels are as tall as their content (measured the frame before) and
// never taller than the room left; they never overlap.
// To add a tool: add it to kTools (widgets/tool_names.h) and call
// begin_tool/end_tool around its contents (or hold a ToolTab).
#include <map>
#include <string>
#include <vector>

#include "widgets/tool_names.h"

namespace cv::ui {

struct Rect {
  float x = 0, y = 0, w = 0, h = 0;
  bool overlaps(const Rect& o) const;
};

// What the plan needs to know, all in pixels.
struct LayoutInput {
  float width = 0, height = 0;  // the display
  float font = 13;              // the font size at the current UI scale
  float margin = 8;
  float strip_h = 0;  // the tab strip's height (its rows of tabs)
  bool tool_open = false;
  float tool_wanted_h = 0;  // content heights from the frame before (0: unknown)
  float control_wanted_h = 0, timing_wanted_h = 0;
  // The class server's panel (address, QR code, join code, counts): shown
  // while the server runs, as tall as its content.
  bool class_open = false;
  float class_wanted_h = 0;
  // Presentation mode (Presentation::present_layout): the scene keeps the
  // left of the screen; one column on the right holds the side panels folded
  // to their title bars (`*_collapsed`: not in use), the class panel, the
  // lesson (`tool_beside`: the open tool goes in the column) and the tab strip.
  bool present = false;
  bool control_collapsed = true, timing_collapsed = true;
  bool tool_beside = false;
  float title_h = 0;       // a folded panel's height (its title bar)
  float column_strip_h = 0;  // the tab strip's height at the column's width
};

struct LayoutPlan {
  Rect control, timing, strip, tool;
  Rect class_panel;  // w == 0: not shown
  Rect scene;  // where the 3D view goes: free_rect() of the panels above
  float tool_room = 0;  // the most height a tool may have (open or not)
};

// The share of the display the scene keeps in presentation mode, at least.
constexpr float kPresentSceneShare = 0.6f;
// The right column's width in presentation mode, as a share of the display's.
constexpr float kPresentColumnShare = 0.31f;

// Pure: side columns of about 28 and 24 font sizes (at most half the room
// each), the strip at the bottom, the open tool above it (at most half the
// height), the columns in what is left; the scene in the room they leave.
LayoutPlan plan_layout(const LayoutInput& in);

// Pure: the rectangle of the width x height display that touches none of
// `panels` and has the longest shorter side (what a framed scene scales with;
// the larger area breaks ties). Where the best is under a quarter of the
// display's shorter side (huge UI scales), the whole width above the lowest
// full-width panel (the strip, an open tool) instead: the side panels then
// cover part of the scene, as they would any picture.
Rect free_rect(float width, float height, const std::vector<Rect>& panels);

class Layout {
 public:
  static const std::vector<std::string>& tool_names();

  // After ImGui::NewFrame: this frame's rectangles.
  void begin_frame();
  // Before the side panels' Begin: their place (and no moving or resizing).
  void place_control() const;
  void place_timing() const;
  int side_flags() const;
  // Before a panel's End: its content height, for the next frame's size.
  void end_panel(const char* name);

  // Presentation mode (ui/layout.h's LayoutInput::present), set before begin_frame.
  void set_present(bool on) { present_ = on; }
  bool present() const { return present_; }
  // The class panel, shown while the server runs (set before begin_frame);
  // begin_class_panel/end_class_panel around its contents.
  void set_class_panel(bool on) { class_on_ = on; }
  bool begin_class_panel(const char* title);
  void end_class_panel();

  // The tool area: opening one closes the other; open("") closes all.
  void open(const std::string& tool) { open_ = tool; }
  void close(const std::string& tool) {
    if (open_ == tool) open_.clear();
  }
  bool is_open(const std::string& tool) const { return open_ == tool; }
  // For a tool that fills all the height it may have (the kernel editor).
  float tool_room() const { return plan_.tool_room; }
  // Begins the tool's window (titled `title`) when it is the open one; then
  // draw its contents and call end_tool(). False: nothing to draw, no End.
  bool begin_tool(const std::string& tool, const char* title);
  void end_tool();
  // The strip of tabs along the bottom.
  void draw_strip();
  // Where the 3D view went in the last planned frame, in display pixels (y
  // down); w == 0 before the first plan. The scene is drawn before the panels
  // are planned, so it follows a tab that opens one frame later.
  const Rect& scene_rect() const { return plan_.scene; }
  float planned_width() const { return planned_w_; }
  float planned_height() const { return planned_h_; }

 private:
  std::vector<std::vector<int>> strip_rows(float width) const;

  std::string open_;
  std::map<std::string, float> wanted_h_;
  std::map<std::string, bool> collapsed_;  // side panels folded (presentation mode)
  bool present_ = false, class_on_ = false;
  bool fold_sides_ = false;    // this frame folds (entering) or unfolds (leaving) them
  bool was_present_ = false;
  LayoutPlan plan_;
  float planned_w_ = 0, planned_h_ = 0;
};

// After ImGui::Render: every visible panel that overlaps another, reaches
// past the display, or has content wider than itself, one line each.
std::vector<std::string> layout_problems();

}  // namespace cv::ui
