#include "ui/panels.h"

#include <imgui.h>

#include <cmath>
#include <cstdio>

#include "common/device_info.h"
#include "insight/insight_ui.h"
#include "ui/notes_text.h"
#include "ui/presentation.h"
#include "ui/timing_export.h"

namespace cv {
namespace ui {

const ImVec4 kWarn(1.f, 0.45f, 0.35f, 1.f);
const ImVec4 kDim(0.65f, 0.7f, 0.8f, 1.f);
const ImVec4 kGood(0.4f, 0.9f, 0.45f, 1.f);
const ImVec4 kBad(1.f, 0.35f, 0.3f, 1.f);

// ImGui 1.86 has no SeparatorText.
void section(const char* title) {
  ImGui::Spacing();
  ImGui::Separator();
  ImGui::TextColored(kDim, "%s", title);
}

void tooltip(const char* text) {
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}

std::string si(double v) {
  const char* units[] = {"", " K", " M", " G", " T", " P"};
  int u = 0;
  double a = std::fabs(v);
  while (a >= 1000.0 && u < 5) {
    a /= 1000.0;
    v /= 1000.0;
    ++u;
  }
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3g%s", v, units[u]);
  return buf;
}

}  // namespace ui

namespace {

using ui::kDim;
using ui::kWarn;

void backend_section(const ParticleScene& scene) {
  if (scene.backend() == Backend::Cuda) {
    const DeviceInfo& d = device_info();
    ImGui::Text("CUDA: %s (sm_%d%d, %d SMs)", d.name.c_str(), d.cc_major, d.cc_minor, d.sm_count);
  } else {
    ImGui::TextColored(kWarn, "CPU backend");
    ImGui::TextColored(kDim, "%s",
                       device_info().available ? "chosen with --backend cpu"
                                               : device_info().unavailable_reason.c_str());
  }
  ImGui::TextColored(kDim, "%s", scene.transfer_note().c_str());
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
  if (!ui.scene_message.empty()) ImGui::TextColored(kWarn, "%s", ui.scene_message.c_str());
}

void block_section(ParticleScene& scene, SceneUi& sui) {
  const bool two_d = scene.two_dimensional_block();
  ui::section(two_d ? "Block shape" : "Block size (1D kernel)");
  bool changed = ImGui::SliderInt("block x", &sui.block_x, 1, 1024);
  ui::tooltip("Threads per block along x. The grid is sized to cover every element.");
  if (two_d) {
    changed |= ImGui::SliderInt("block y", &sui.block_y, 1, 1024);
    ui::tooltip("Threads per block along y (the seed uses a 2D grid of 2D blocks, 16x16).");
    const char* presets[] = {"1x1", "2x2", "8x8", "16x16", "32x8", "32x32", "256x1", "1x256"};
    const int px[] = {1, 2, 8, 16, 32, 32, 256, 1}, py[] = {1, 2, 8, 16, 8, 32, 1, 256};
    for (int i = 0; i < 8; ++i) {
      if (i % 4) ImGui::SameLine();
      if (ImGui::SmallButton(presets[i])) {
        sui.block_x = px[i];
        sui.block_y = py[i];
        changed = true;
      }
    }
  } else {
    sui.block_y = 1;
    const int sizes[] = {32, 64, 128, 256, 512, 1024};
    for (int i = 0; i < 6; ++i) {
      if (i) ImGui::SameLine();
      char label[16];
      std::snprintf(label, sizeof label, "%d", sizes[i]);
      if (ImGui::SmallButton(label)) {
        sui.block_x = sizes[i];
        changed = true;
      }
    }
  }
  if (changed) {
    if (auto err = scene.set_block(BlockShape{sui.block_x, two_d ? sui.block_y : 1, 1}))
      sui.block_message = *err + "; keeping " + to_string(scene.block());
    else
      sui.block_message.clear();
  }
  const BlockShape& b = scene.block();
  ImGui::Text("running %s = %lld threads/block", to_string(b).c_str(), b.threads());
  const std::string note = scene.grid_note();
  if (!note.empty()) ImGui::TextColored(kDim, "%s", note.c_str());
  if (scene.backend() == Backend::Cpu)
    ImGui::TextColored(kDim, "CPU backend: only the CUDA kernels use the shape");
  if (b.threads() % 32 && scene.backend() == Backend::Cuda)
    ImGui::TextColored(kDim, "%lld threads is not a multiple of the 32-thread warp", b.threads());
  if (!sui.block_message.empty()) ImGui::TextWrapped("%s", sui.block_message.c_str());
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

void draw_control_panel(ParticleScene& scene, SceneKind kind, SceneUi& sui, UiState& ui) {
  const float s = ui::layout_scale();  // presentation.h: panels grow with the UI scale
  ImGui::SetNextWindowPos(ImVec2(10 * s, 10 * s), ui::layout_cond());
  ImGui::SetNextWindowSize(ImVec2(ui::panel_width(380), 0), ui::layout_cond());
  ImGui::Begin("cudaviz");
  backend_section(scene);
  scene_menu(kind, ui);
  ImGui::Text("step %lld", scene.steps());
  if (ImGui::Button(ui.paused ? "resume" : "pause")) ui.paused = !ui.paused;
  ui::tooltip("Space");
  ImGui::SameLine();
  if (ImGui::Button("step")) ui.step_once = true;
  ui::tooltip("One simulation step while paused (S).");
  ImGui::SameLine();
  if (ImGui::Button("reset")) ui.reset_requested = true;
  ui::tooltip("Back to the initial state (R).");
  ImGui::SameLine();
  if (ImGui::Button("camera")) ui.camera_reset_requested = true;
  ui::tooltip("Back to the scene's default view (C).");
  ImGui::SameLine();
  if (ImGui::Button("screenshot")) ui.screenshot_requested = true;
  ui::tooltip("P: writes cudaviz-<time>.png in the current directory.");
  notes::draw_notice(notes::scene_notice(kind), "scene notice");
  block_section(scene, sui);
  draw_scene_section(scene, sui);
  renderer_section(ui);
  insight_ui::InsightUi::colour_by_control(scene, ui);  // colour by launch (issue 12)
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
  ImGui::End();
}

void draw_timing_panel(ParticleScene& scene, UiState& ui) {
  const float s = ui::layout_scale();
  ImGui::SetNextWindowPos(
      ImVec2(ImGui::GetIO().DisplaySize.x - ui::panel_width(380) - 10 * s, 10 * s),
      ui::layout_cond());
  ImGui::SetNextWindowSize(ImVec2(ui::panel_width(380), 0), ui::layout_cond());
  ImGui::Begin("timing");
  char label[96];
  auto plot = [&](const char* name, const History& h, const char* unit) {
    std::snprintf(label, sizeof label, "%.3f %s", h.latest(), unit);
    ImGui::PlotLines(name, h.data(), h.size(), h.offset(), label, 0.f, h.max() * 1.2f + 1e-6f,
                     ImVec2(0, 44 * s));
  };
  plot("fps", ui.fps, "fps");
  plot("frame", ui.frame_ms, "ms");
  const bool cuda = scene.backend() == Backend::Cuda;
  plot(cuda ? "kernel (GPU)" : "step (CPU)", scene.kernel_ms, "ms");
  plot(cuda ? "map+step+unmap" : "step+upload", scene.step_ms, "ms");
  plot("draw (GPU)", ui.draw_ms, "ms");
  if (ui.splat_active) plot("splat (GPU)", ui.splat_ms, "ms");
  draw_timing_export(scene, ui);  // the plots' data as CSV
  // The scene's own throughput, from the latest kernel time.
  const nlohmann::ordered_json t = scene.throughput();
  for (auto it = t.begin(); it != t.end(); ++it) {
    if (!it.value().is_number()) continue;
    const double v = it.value().get<double>();
    const std::string& k = it.key();
    if (k == "gflops")
      ImGui::Text("GFLOP/s: %.1f  (20 flops an interaction)", v);
    else if (k == "gb_per_s")
      ImGui::Text("GB/s: %.2f", v);
    else {
      std::string name = k;
      if (auto p = name.find("_per_s"); p != std::string::npos) name = name.substr(0, p) + "/s";
      ImGui::Text("%s: %s", name.c_str(), ui::si(v).c_str());
    }
  }
  ImGui::End();
}

}  // namespace cv
