#include "ui/presentation.h"

#include <glad/gl.h>  // before GLFW
#include <GLFW/glfw3.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <cmath>

#include "gl/gl_check.h"
#include "ui/hotkeys.h"
#include "ui/panels.h"
#include "widgets/widgets.h"

namespace cv {
namespace {

// Set by begin_frame for the frame's panels (one ImGui context per process).
float g_layout_scale = 1.f;

// Black panels, white text and borders, yellow for what can be grabbed or is
// selected: legible on a washed-out projector where the dark theme's greys
// and blues merge.
void high_contrast_colors(ImGuiStyle& s) {
  ImGui::StyleColorsDark(&s);
  ImVec4* c = s.Colors;
  const ImVec4 black(0.f, 0.f, 0.f, 1.f), white(1.f, 1.f, 1.f, 1.f), yellow(1.f, 0.86f, 0.f, 1.f);
  c[ImGuiCol_Text] = white;
  c[ImGuiCol_TextDisabled] = ImVec4(0.75f, 0.75f, 0.75f, 1.f);
  c[ImGuiCol_WindowBg] = black;
  c[ImGuiCol_ChildBg] = black;
  c[ImGuiCol_PopupBg] = black;
  c[ImGuiCol_Border] = white;
  c[ImGuiCol_FrameBg] = ImVec4(0.13f, 0.13f, 0.13f, 1.f);
  c[ImGuiCol_FrameBgHovered] = ImVec4(0.3f, 0.27f, 0.f, 1.f);
  c[ImGuiCol_FrameBgActive] = ImVec4(0.45f, 0.4f, 0.f, 1.f);
  c[ImGuiCol_TitleBg] = black;
  c[ImGuiCol_TitleBgActive] = ImVec4(0.f, 0.f, 0.55f, 1.f);
  c[ImGuiCol_TitleBgCollapsed] = black;
  c[ImGuiCol_ScrollbarGrab] = ImVec4(0.7f, 0.7f, 0.7f, 1.f);
  c[ImGuiCol_CheckMark] = yellow;
  c[ImGuiCol_SliderGrab] = yellow;
  c[ImGuiCol_SliderGrabActive] = white;
  c[ImGuiCol_Button] = ImVec4(0.13f, 0.13f, 0.13f, 1.f);
  c[ImGuiCol_ButtonHovered] = ImVec4(0.3f, 0.27f, 0.f, 1.f);
  c[ImGuiCol_ButtonActive] = ImVec4(0.45f, 0.4f, 0.f, 1.f);
  c[ImGuiCol_Header] = ImVec4(0.2f, 0.2f, 0.2f, 1.f);
  c[ImGuiCol_HeaderHovered] = ImVec4(0.3f, 0.27f, 0.f, 1.f);
  c[ImGuiCol_HeaderActive] = ImVec4(0.45f, 0.4f, 0.f, 1.f);
  c[ImGuiCol_Separator] = white;
  c[ImGuiCol_PlotLines] = yellow;
  c[ImGuiCol_PlotLinesHovered] = ImVec4(0.f, 1.f, 1.f, 1.f);
  // Progress bars print white text over their fill: a deep blue keeps it readable.
  c[ImGuiCol_PlotHistogram] = ImVec4(0.1f, 0.4f, 0.9f, 1.f);
  c[ImGuiCol_TableHeaderBg] = ImVec4(0.2f, 0.2f, 0.2f, 1.f);
  c[ImGuiCol_TableBorderStrong] = white;
  c[ImGuiCol_TableBorderLight] = ImVec4(0.6f, 0.6f, 0.6f, 1.f);
  c[ImGuiCol_TextSelectedBg] = ImVec4(0.45f, 0.4f, 0.f, 1.f);
  s.WindowBorderSize = 2.f;
  s.FrameBorderSize = 1.f;
}

// The monitor under the window's centre (fullscreen goes there), else the primary.
GLFWmonitor* monitor_for(GLFWwindow* w) {
  int wx, wy, ww, wh;
  glfwGetWindowPos(w, &wx, &wy);
  glfwGetWindowSize(w, &ww, &wh);
  const int cx = wx + ww / 2, cy = wy + wh / 2;
  int count = 0;
  GLFWmonitor** monitors = glfwGetMonitors(&count);
  for (int i = 0; i < count; ++i) {
    const GLFWvidmode* mode = glfwGetVideoMode(monitors[i]);
    int mx, my;
    glfwGetMonitorPos(monitors[i], &mx, &my);
    if (mode && cx >= mx && cx < mx + mode->width && cy >= my && cy < my + mode->height)
      return monitors[i];
  }
  return glfwGetPrimaryMonitor();
}

}  // namespace

void Presentation::set_ui_scale(float s) {
  if (!std::isfinite(s)) return;
  ui_scale = std::clamp(s, kMinUiScale, kMaxUiScale);
}

void Presentation::sync_fullscreen(GLFWwindow* w) {
  if (fullscreen_requested == fullscreen_) return;
  if (fullscreen_requested) {
    GLFWmonitor* m = monitor_for(w);
    const GLFWvidmode* mode = m ? glfwGetVideoMode(m) : nullptr;
    if (!mode) {
      message_ = "fullscreen: no monitor found";
      fullscreen_requested = false;
      return;
    }
    glfwGetWindowPos(w, &saved_x_, &saved_y_);
    glfwGetWindowSize(w, &saved_w_, &saved_h_);
    glfwSetWindowMonitor(w, m, 0, 0, mode->width, mode->height, mode->refreshRate);
  } else {
    glfwSetWindowMonitor(w, nullptr, saved_x_, saved_y_, saved_w_, saved_h_, GLFW_DONT_CARE);
  }
  message_.clear();
  fullscreen_ = fullscreen_requested;
}

void Presentation::rebuild_fonts_and_style(float scale) {
  ImGuiIO& io = ImGui::GetIO();
  // The font is rasterized at the scaled pixel size (not stretched with
  // FontGlobalScale), so text stays sharp at any scale.
  const bool had_texture = io.Fonts->TexID != nullptr;
  io.Fonts->Clear();
  ImFontConfig cfg;
  cfg.SizePixels = std::round(13.f * scale);
  io.Fonts->AddFontDefault(&cfg);
  if (had_texture) {
    // Otherwise the backend builds the texture in its first NewFrame.
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    if (!ImGui_ImplOpenGL3_CreateFontsTexture())
      throw GlError("ImGui_ImplOpenGL3_CreateFontsTexture failed");
    check_gl("ImGui_ImplOpenGL3_CreateFontsTexture");
  }
  ImGuiStyle style;
  if (high_contrast)
    high_contrast_colors(style);
  else
    ImGui::StyleColorsDark(&style);
  style.ScaleAllSizes(scale);
  ImGui::GetStyle() = style;
  ui::set_theme(high_contrast ? ui::Theme::HighContrast : ui::Theme::Dark);
}

void Presentation::begin_frame(GLFWwindow* window) {
  sync_fullscreen(window);
  float xs = 1.f, ys = 1.f;
  glfwGetWindowContentScale(window, &xs, &ys);
  content_scale_ = std::clamp(std::max(xs, ys), 0.5f, 4.f);
  const float scale = effective_scale();
  if (scale != applied_scale_ || high_contrast != applied_contrast_) {
    // The layout (ui/layout.h) follows on the same frame: it reads the font size.
    rebuild_fonts_and_style(scale);
    applied_scale_ = scale;
    applied_contrast_ = high_contrast;
  }
  g_layout_scale = scale;
}

void Presentation::draw_help() {
  if (!show_help) return;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.92f);
  if (ImGui::Begin("keys (F1 or ? to close)", &show_help,
                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse |
                       ImGuiWindowFlags_NoSavedSettings)) {
    if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
      for (const Hotkey& h : hotkeys()) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextColored(ui::kGood, "%s", h.keys);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(h.what);
      }
      const char* mouse[][2] = {
          {"left drag", "orbit the camera"}, {"right drag", "pan"}, {"wheel", "zoom"}};
      for (const auto& m : mouse) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextColored(ui::kDim, "%s", m[0]);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(m[1]);
      }
      ImGui::EndTable();
    }
    ImGui::TextColored(ui::kDim, "Keys do nothing while a text field has the keyboard.");
  }
  ImGui::End();
}

void Presentation::draw_controls() {
  // Applied on release: rescaling while dragging would move the slider under the mouse.
  float s = slider_active_ ? slider_value_ : ui_scale;
  ImGui::SliderFloat("UI scale", &s, kMinUiScale, kMaxUiScale, "%.2f");
  slider_active_ = ImGui::IsItemActive();
  slider_value_ = s;
  if (ImGui::IsItemDeactivatedAfterEdit()) set_ui_scale(s);
  ui::tooltip(
      "Text and panel size (keys + and -). The font is redrawn at the new size, so it stays "
      "sharp. Multiplied by the monitor's own scale on HiDPI screens.");
  if (content_scale_ != 1.f) {
    ImGui::SameLine();
    ImGui::TextColored(ui::kDim, "x %.2f monitor", content_scale_);
  }
  ImGui::Checkbox("high contrast", &high_contrast);
  ui::tooltip("Black panels, white text, yellow controls: for projectors (T).");
  ui::same_line_if_fits("scene first");
  ImGui::Checkbox("scene first", &present_layout);
  ui::tooltip(
      "Presentation layout (--present): the scene keeps the left two thirds of the screen; "
      "the side panels fold to their title bars (click one to unfold it) and the lesson, "
      "the class's votes and the tabs share one column on the right.");
  if (ImGui::Button(fullscreen_ ? "windowed" : "fullscreen"))
    fullscreen_requested = !fullscreen_requested;
  ui::tooltip("F11. Leaving fullscreen puts the window back where it was.");
  ImGui::SameLine();
  if (ImGui::Button("hide panels")) panels_hidden = true;
  ui::tooltip("Tab or H brings them back.");
  ImGui::SameLine();
  if (ImGui::Button("keys")) show_help = !show_help;
  ui::tooltip("F1 or ?: every key of the window.");
  if (!message_.empty()) ImGui::TextColored(ui::kWarn, "%s", message_.c_str());
}

namespace ui {
float layout_scale() {
  return g_layout_scale;
}
}  // namespace ui

}  // namespace cv
