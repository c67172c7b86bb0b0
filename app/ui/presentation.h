#pragma once
// Presentation: what makes the app readable from the back of a classroom.
// UI scale (fonts re-rasterized at the scaled size, HiDPI aware), a
// high-contrast theme, hiding every panel, fullscreen, and the help overlay
// that lists the keys of ui/hotkeys.h.
#include <imgui.h>

#include <string>

struct GLFWwindow;

namespace cv {

// The UI scale the slider, presets and --ui-scale accept.
constexpr float kMinUiScale = 1.f, kMaxUiScale = 4.f;

struct Presentation {
  // What the user asked for (keys, the classroom panel, presets, the command line).
  float ui_scale = 1.f;  // 1..4, times the monitor's content scale
  bool high_contrast = false;
  bool panels_hidden = false;
  // Presentation mode's layout (--present): the scene keeps the left of the
  // screen, one column on the right holds the rest (ui/layout.h).
  bool present_layout = false;
  bool show_help = false;
  bool fullscreen_requested = false;

  void set_ui_scale(float s);  // clamped to [kMinUiScale, kMaxUiScale]

  // Before ImGui's NewFrame: follows the fullscreen request, reads the
  // window's content scale, and rebuilds fonts and style when the effective
  // scale or the theme changed. Throws GlError if the font texture fails.
  void begin_frame(GLFWwindow* window);
  // Inside the ImGui frame: the help overlay, when show_help is on.
  void draw_help();
  // The presentation controls (the classroom panel's section).
  void draw_controls();

  float effective_scale() const { return ui_scale * content_scale_; }
  const std::string& message() const { return message_; }

 private:
  void sync_fullscreen(GLFWwindow* window);
  void rebuild_fonts_and_style(float scale);

  bool fullscreen_ = false;
  int saved_x_ = 0, saved_y_ = 0, saved_w_ = 1280, saved_h_ = 800;
  float content_scale_ = 1.f;
  float applied_scale_ = 0.f;  // 0: nothing built yet
  bool applied_contrast_ = false;
  std::string message_;  // why fullscreen could not be entered
  bool slider_active_ = false;
  float slider_value_ = 1.f;
};

namespace ui {
// The UI scale in effect (fonts and style); sizes in pixels at scale 1 times
// this. Where panels go is ui/layout.h's job.
float layout_scale();
}  // namespace ui

}  // namespace cv
