#pragma once
// Where the tuning windows (occupancy, device, block-shape sweep, frame
// breakdown) sit, at any UI scale (ui/presentation.h).
//
// Collapsed, their title bars stack in the centre column (the classroom
// window's column, between the control and timing panels), just above the labs
// title bar (labs/lab_panel.cpp), one title-bar height plus a gap apart.
// Opened (--panel, a sweep, or a click on a docked title bar), they cascade
// down the same column from just below the classroom title bar, one title bar
// apart so every title stays visible, and end above the docked title bars
// (or, where the screen is too short for that, above the labs title bar).
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "ui/presentation.h"

namespace cv::ui {

class TuningWindow {
 public:
  static constexpr int kSlots = 4;  // occupancy, device, sweep, frames (top to bottom)

  // `slot`: 0..kSlots-1. `width`, `height`: the open size at UI scale 1;
  // `fill`: open to the bottom of the free space instead.
  TuningWindow(int slot, float width, float height, bool fill = false)
      : slot_(slot), width_(width), height_(height), fill_(fill) {}

  // Opens the window at its open place on the next frame.
  void expand() { expand_ = true; }

  // Before ImGui::Begin.
  void place() {
    const Geometry g = geometry();
    if (expand_ || (open_ && layout_cond() == ImGuiCond_Always)) {
      // Asked to open, or open while the UI scale changes: the open place.
      if (expand_) ImGui::SetNextWindowCollapsed(false, ImGuiCond_Always);
      ImGui::SetNextWindowPos(g.open_pos, ImGuiCond_Always);
      ImGui::SetNextWindowSize(g.open_size, ImGuiCond_Always);
      expand_ = false;
      return;
    }
    ImGui::SetNextWindowPos(g.dock_pos, layout_cond());
    ImGui::SetNextWindowSize(ImVec2(g.column_w, g.open_size.y), layout_cond());
    ImGui::SetNextWindowCollapsed(true, ImGuiCond_FirstUseEver);  // the scene first
  }

  // Right after ImGui::Begin, with what it returned. A window the user opens
  // from its docked title bar (or that would open past the bottom of the
  // screen) moves to its open place on the next frame.
  void began(bool open) {
    if (open && !open_) {
      const Geometry g = geometry();
      const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
      const bool docked = std::abs(pos.x - g.dock_pos.x) < 1.f && std::abs(pos.y - g.dock_pos.y) < 1.f;
      if (docked || pos.y + size.y > ImGui::GetIO().DisplaySize.y) expand_ = true;
    }
    open_ = open;
  }

 private:
  struct Geometry {
    float column_w;
    ImVec2 dock_pos, open_pos, open_size;
  };

  Geometry geometry() const {
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    const float s = layout_scale();
    const float title = ImGui::GetFrameHeight();  // a title bar's height
    const float step = title + 6 * s;
    // The classroom window's column (presets/preset_panel.cpp).
    const float x = panel_width(380) + 20 * s;
    const float column_w = std::max(std::min(panel_width(420), display.x - 2 * x), 120 * s);
    const float labs_y = display.y - 40 * s;  // the labs title bar (labs/lab_panel.cpp)
    Geometry g;
    g.column_w = column_w;
    g.dock_pos = ImVec2(x, labs_y - (kSlots - slot_) * step);
    // Open: below the classroom title bar, on screen, and above the docked
    // title bars where that leaves room (300 px at scale 1), else above the
    // labs title bar (small windows at large scales).
    const float top = 10 * s + step + slot_ * step;
    const float to_labs = std::max(labs_y - 6 * s - top, 4 * title);
    const float to_dock = labs_y - kSlots * step - 6 * s - top;
    const float want = fill_ ? to_labs : std::min(height_ * s, to_labs);
    const float fits = std::min(want, to_dock);
    g.open_pos = ImVec2(x, top);
    g.open_size = ImVec2(std::max(std::min(width_ * s, display.x - x - 10 * s), column_w),
                         fits >= std::min(want, 300 * s) ? fits : want);
    return g;
  }

  int slot_;
  float width_, height_;
  bool fill_;
  bool expand_ = false;  // open at the open place on the next frame
  bool open_ = false;    // Begin returned true last frame
};

}  // namespace cv::ui
