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

namespace cv {
class ParticleScene;
}

namespace cv::insight_ui {

// The frame's inputs to a view.
struct ViewContext {
  ParticleScene& scene;
  Backend backend;
};

// A view's window: hidden until opened; opens at its slot (cascading in the
// centre column) at the current UI scale.
class ViewWindow {
 public:
  ViewWindow(const char* title, int slot, float width, float height)
      : title_(title), slot_(slot), width_(width), height_(height) {}
  void open() { open_ = place_ = true; }
  bool is_open() const { return open_; }
  void toggle() { open_ ? void(open_ = false) : open(); }
  // ImGui::Begin for the window when open; call end() only when it returned true.
  bool begin();
  void end() { ImGui::End(); }

 private:
  const char* title_;
  int slot_;
  float width_, height_;
  bool open_ = false, place_ = false;
};

// The golden-ratio hue of id (as shaders/particles.vert's launch_colour()).
ImU32 id_colour(uint32_t id, float alpha = 1.f);
ImU32 lane_colour(unsigned lane, float alpha = 1.f);
// A dim line: "needs a GPU: <why>" on the CPU backend.
void needs_gpu(const char* what);
// Collapsible "what to notice" text.
void notice(const char* text);

}  // namespace cv::insight_ui
