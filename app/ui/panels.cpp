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
  int current = kind.index;
  std::string items;
  for (const SceneDescriptor& s : scene_infos()) {
    items += std::to_string(s.hotkey) + " " + s.label;  // the combo shows the key
    items += '\0';
  }
  const std::string keys = scene_keys_text();
  if (ImGui::Combo("scene", &current, items.c_str())) ui.requests.scene = SceneKind{current};
  ui::tooltip(("Keys " + keys +
               ". Each scene keeps its own block shape, parameters, camera and plots.")
                  .c_str());
  if (!ui.stats.scene_message.empty()) ui::wrapped(kWarn, ui.stats.scene_message);  // can be long: wrap
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
  int r = static_cast<int>(ui.settings.renderer);
  const char* names[] = {"auto", "point sprites (GL)", "splat (CUDA)"};
  if (ImGui::Combo("draw with", &r, names, 3)) {
    ui.settings.renderer = static_cast<UiState::Renderer>(r);
    ui.stats.renderer_message.clear();
  }
  ui::tooltip(
      "Point sprites: round, soft GL points. Splat: a CUDA kernel adds each particle as one\n"
      "pixel into an image (atomics), then GL blends the image over the scene; it keeps up\n"
      "with millions of particles where GL points cannot. Auto: splat from 2M particles.");
  ImGui::TextDisabled("now: %s", ui.stats.splat_active ? "splat (CUDA)" : "point sprites (GL)");
  if (!ui.stats.renderer_message.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui::kWarn);
    ImGui::TextWrapped("%s", ui.stats.renderer_message.c_str());
    ImGui::PopStyleColor();
  }
}
}  // namespace

namespace {
// Vsync, the fps cap and how the simulation keeps time (timing/frame_pacing.h).
void pacing_section(UiState& ui) {
  ui::section("Frame pacing");
  ImGui::Checkbox("vsync", &ui.settings.pacing.vsync);
  ui::tooltip("Wait for the display's refresh: no tearing, at most the display's rate.");
  ui::same_line_if_fits("00000 fps cap");
  ImGui::SetNextItemWidth(ImGui::CalcTextSize("00000").x + ImGui::GetStyle().FramePadding.x * 2);
  if (ImGui::InputInt("fps cap", &ui.fps_cap_input, 0, 0,
                      ImGuiInputTextFlags_EnterReturnsTrue)) {
    if (auto err = pacing::check_fps_cap(ui.fps_cap_input)) {
      ui.pacing_message = *err + "; keeping " + std::to_string(ui.settings.pacing.fps_cap);
      ui.fps_cap_input = ui.settings.pacing.fps_cap;
    } else {
      ui.settings.pacing.fps_cap = ui.fps_cap_input;
      ui.pacing_message.clear();
    }
  }
  ui::tooltip("At most this many frames per second (Enter applies); 0: no cap.");
  ui::wrapped(ui::kDim, "simulation: " + std::to_string(ui.stats.sim_steps) + " step(s) of 1/60 s this frame");
  ui::tooltip(
      "The simulation advances in fixed steps, as many per frame as time passed, so motion\n"
      "looks the same on a fast and a slow GPU. Scripted runs (--frames) run one a frame.");
  if (ui.stats.sim_behind)
    ui::wrapped(ui::kWarn, "frames take longer than 4 steps (1/15 s): motion runs slower than real time");
  if (!ui.pacing_message.empty()) ui::wrapped(ui::kWarn, ui.pacing_message);
}
}  // namespace

void draw_control_panel(ParticleScene& scene, SceneKind kind, SceneUi& sui, UiState& ui,
                        ui::Layout& layout, ui::SystemSection& system) {
  layout.place_control();
  ImGui::Begin("cudaviz", nullptr, layout.side_flags());
  // Widgets fill the panel but leave room for the longest label beside them.
  ImGui::PushItemWidth(-(ImGui::CalcTextSize("emitter speed").x + ImGui::GetStyle().ItemInnerSpacing.x));
  backend_section(scene);
  system.draw();  // doctor's findings (ui/system_panel.h)
  scene_menu(kind, ui);
  notes::draw_notice(notes::scene_notice(kind), "scene notice");
  SceneControls controls = ui.scene_controls();
  scene.build_ui(sui, controls);  // the scene's own panel: run controls, block, its section
  ui::section("View");
  if (ImGui::Button("camera")) ui.requests.camera_reset = true;
  ui::tooltip("Back to the scene's default view (C).");
  ui::same_line_if_fits("screenshot");
  if (ImGui::Button("screenshot")) ui.requests.screenshot = true;
  ui::tooltip("P: writes cudaviz-<time>.png in the current directory.");
  draw_record_controls(ui.record);
  renderer_section(ui);
  pacing_section(ui);
  if (!ui.stats.error_message.empty()) {
    ImGui::Separator();
    ImGui::PushStyleColor(ImGuiCol_Text, kWarn);
    ImGui::TextWrapped("stopped: %s", ui.stats.error_message.c_str());
    ImGui::PopStyleColor();
    if (ImGui::Button("dismiss and resume")) {
      ui.stats.error_message.clear();
      ui.settings.paused = false;
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
  // Plots leave room for their longest label ("map+yours+unmap" while a
  // student's kernel steps the scene on CUDA), at any width and scale.
  ImGui::PushItemWidth(-(ImGui::CalcTextSize("map+yours+unmap").x + ImGui::GetStyle().ItemInnerSpacing.x));
  char label[96];
  auto plot = [&](const char* name, const History& h, const char* unit) {
    std::snprintf(label, sizeof label, "%.3f %s", h.latest(), unit);
    ImGui::PlotLines(name, h.data(), h.size(), h.offset(), label, 0.f, h.max() * 1.2f + 1e-6f,
                     ImVec2(0, 44 * s));
  };
  plot("fps", ui.stats.fps, "fps");
  plot("frame", ui.stats.frame_ms, "ms");
  scene.build_timing_ui(44 * s);  // the scene's kernel plots and throughput
  plot("draw (GPU)", ui.stats.draw_ms, "ms");
  if (ui.stats.splat_active) plot("splat (GPU)", ui.stats.splat_ms, "ms");
  draw_timing_export(scene, ui);  // the plots' data as CSV
  ImGui::PopItemWidth();
  layout.end_panel("timing");
  ImGui::End();
}

}  // namespace cv
