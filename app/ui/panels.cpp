#include "ui/panels.h"

#include <imgui.h>

#include <cmath>
#include <cstdio>

#include "common/device_info.h"
#include "timing/frame_pacing.h"
#include "ui/notes_text.h"
#include "ui/presentation.h"
#include "ui/system_panel.h"
#include "ui/timing_export.h"

namespace cv {
namespace {

using ui::kDim;
using ui::kWarn;

void backend_section(const ParticleScene& scene) {
  // Wrapped: the device line must read in full at any width and UI scale.
  if (scene.backend() == Backend::Cuda) {
    const DeviceInfo& d = device_info();
    char line[256];
    std::snprintf(line, sizeof line, "CUDA: %s (sm_%d%d, %d SMs)", d.name.c_str(), d.cc_major,
                  d.cc_minor, d.sm_count);
    ui::wrapped(ImGui::GetStyleColorVec4(ImGuiCol_Text), line);
  } else {
    ImGui::TextColored(kWarn, "CPU backend");
    ui::wrapped(kDim, device_info().available ? "chosen with --backend cpu"
                                              : device_info().unavailable_reason);
  }
  ui::wrapped(kDim, scene.transfer_note());
}

void scene_menu(SceneKind kind, UiState& ui) {
  int current = static_cast<int>(kind);
  std::string items;
  for (const SceneInfo& s : scene_infos()) {
    items += s.label;
    items += '\0';
  }
  if (ImGui::Combo("scene", &current, items.c_str()))
    ui.scene_request = static_cast<SceneKind>(current);
  ui::tooltip("Keys 1-4. Each scene keeps its own block shape, parameters, camera and plots.");
  if (!ui.scene_message.empty()) ui::wrapped(kWarn, ui.scene_message);  // can be long: wrap
}

}  // namespace

const char* to_string(UiState::Renderer r) {
  switch (r) {
    case UiState::Renderer::Auto:
      return "auto";
    case UiState::Renderer::Sprites:
      return "sprites";
    case UiState::Renderer::Splat:
      return "splat";
  }
  return "?";
}

std::optional<UiState::Renderer> parse_renderer(const std::string& s) {
  for (auto r : {UiState::Renderer::Auto, UiState::Renderer::Sprites, UiState::Renderer::Splat})
    if (s == to_string(r)) return r;
  return std::nullopt;
}

namespace {
void renderer_section(UiState& ui) {
  ui::section("renderer");
  int r = static_cast<int>(ui.renderer);
  const char* names[] = {"auto", "point sprites (GL)", "splat (CUDA)"};
  if (ImGui::Combo("draw with", &r, names, 3)) {
    ui.renderer = static_cast<UiState::Renderer>(r);
    ui.renderer_message.clear();
  }
  ui::tooltip(
      "Point sprites: round, soft GL points. Splat: a CUDA kernel adds each particle as one\n"
      "pixel into an image (atomics), then GL blends the image over the scene; it keeps up\n"
      "with millions of particles where GL points cannot. Auto: splat from 2M particles.");
  ImGui::TextDisabled("now: %s", ui.splat_active ? "splat (CUDA)" : "point sprites (GL)");
  if (!ui.renderer_message.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui::kWarn);
    ImGui::TextWrapped("%s", ui.renderer_message.c_str());
    ImGui::PopStyleColor();
  }
}
}  // namespace

namespace {
// Vsync, the fps cap and how the simulation keeps time (timing/frame_pacing.h).
void pacing_section(UiState& ui) {
  ui::section("Frame pacing");
  ImGui::Checkbox("vsync", &ui.pacing.vsync);
  ui::tooltip("Wait for the display's refresh: no tearing, at most the display's rate.");
  ui::same_line_if_fits("00000 fps cap");
  ImGui::SetNextItemWidth(ImGui::CalcTextSize("00000").x + ImGui::GetStyle().FramePadding.x * 2);
  if (ImGui::InputInt("fps cap", &ui.fps_cap_input, 0, 0,
                      ImGuiInputTextFlags_EnterReturnsTrue)) {
    if (auto err = pacing::check_fps_cap(ui.fps_cap_input)) {
      ui.pacing_message = *err + "; keeping " + std::to_string(ui.pacing.fps_cap);
      ui.fps_cap_input = ui.pacing.fps_cap;
    } else {
      ui.pacing.fps_cap = ui.fps_cap_input;
      ui.pacing_message.clear();
    }
  }
  ui::tooltip("At most this many frames per second (Enter applies); 0: no cap.");
  ui::wrapped(ui::kDim, "simulation: " + std::to_string(ui.sim_steps) + " step(s) of 1/60 s this frame");
  ui::tooltip(
      "The simulation advances in fixed steps, as many per frame as time passed, so motion\n"
      "looks the same on a fast and a slow GPU. Scripted runs (--frames) run one a frame.");
  if (ui.sim_behind)
    ui::wrapped(ui::kWarn, "frames take longer than 4 steps (1/15 s): motion runs slower than real time");
  if (!ui.pacing_message.empty()) ui::wrapped(ui::kWarn, ui.pacing_message);
}
}  // namespace

void draw_control_panel(ParticleScene& scene, SceneKind kind, SceneUi& sui, UiState& ui,
                        ui::Layout& layout) {
  layout.place_control();
  ImGui::Begin("cudaviz", nullptr, layout.side_flags());
  // Widgets fill the panel but leave room for the longest label beside them.
  ImGui::PushItemWidth(-(ImGui::CalcTextSize("emitter speed").x + ImGui::GetStyle().ItemInnerSpacing.x));
  backend_section(scene);
  ui::draw_system_section();  // doctor's findings (ui/system_panel.h)
  scene_menu(kind, ui);
  notes::draw_notice(notes::scene_notice(kind), "scene notice");
  scene.build_ui(sui, ui);  // the scene's own panel: run controls, block, its section
  ui::section("View");
  if (ImGui::Button("camera")) ui.camera_reset_requested = true;
  ui::tooltip("Back to the scene's default view (C).");
  ui::same_line_if_fits("screenshot");
  if (ImGui::Button("screenshot")) ui.screenshot_requested = true;
  ui::tooltip("P: writes cudaviz-<time>.png in the current directory.");
  draw_record_controls(ui.record);
  renderer_section(ui);
  pacing_section(ui);
  if (!ui.error_message.empty()) {
    ImGui::Separator();
    ImGui::PushStyleColor(ImGuiCol_Text, kWarn);
    ImGui::TextWrapped("stopped: %s", ui.error_message.c_str());
    ImGui::PopStyleColor();
    if (ImGui::Button("dismiss and resume")) {
      ui.error_message.clear();
      ui.paused = false;
    }
  }
  ImGui::PopItemWidth();
  layout.end_panel("control");
  ImGui::End();
}

void draw_timing_panel(ParticleScene& scene, UiState& ui, ui::Layout& layout) {
  const float s = ui::layout_scale();
  layout.place_timing();
  ImGui::Begin("timing", nullptr, layout.side_flags());
  // Plots leave room for their longest label, at any width and scale.
  ImGui::PushItemWidth(-(ImGui::CalcTextSize("map+step+unmap").x + ImGui::GetStyle().ItemInnerSpacing.x));
  char label[96];
  auto plot = [&](const char* name, const History& h, const char* unit) {
    std::snprintf(label, sizeof label, "%.3f %s", h.latest(), unit);
    ImGui::PlotLines(name, h.data(), h.size(), h.offset(), label, 0.f, h.max() * 1.2f + 1e-6f,
                     ImVec2(0, 44 * s));
  };
  plot("fps", ui.fps, "fps");
  plot("frame", ui.frame_ms, "ms");
  scene.build_timing_ui(44 * s);  // the scene's kernel plots and throughput
  plot("draw (GPU)", ui.draw_ms, "ms");
  if (ui.splat_active) plot("splat (GPU)", ui.splat_ms, "ms");
  draw_timing_export(scene, ui);  // the plots' data as CSV
  ImGui::PopItemWidth();
  layout.end_panel("timing");
  ImGui::End();
}

}  // namespace cv
