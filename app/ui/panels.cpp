#include "ui/panels.h"

#include <imgui.h>

#include <cstdio>

#include "common/device_info.h"

namespace cv {
namespace {

const ImVec4 kWarn(1.f, 0.45f, 0.35f, 1.f);
const ImVec4 kDim(0.65f, 0.7f, 0.8f, 1.f);

// ImGui 1.86 has no SeparatorText.
void section(const char* title) {
  ImGui::Spacing();
  ImGui::Separator();
  ImGui::TextColored(kDim, "%s", title);
}

void help_marker(const char* text) {
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}

void backend_section(const FountainScene& scene) {
  if (scene.backend() == Backend::Cuda) {
    const DeviceInfo& d = device_info();
    ImGui::Text("CUDA: %s (sm_%d%d, %d SMs)", d.name.c_str(), d.cc_major, d.cc_minor, d.sm_count);
  } else {
    ImGui::TextColored(kWarn, "CPU backend");
    ImGui::TextColored(kDim, "%s", device_info().available ? "chosen with --backend cpu" : device_info().unavailable_reason.c_str());
  }
  ImGui::TextColored(kDim, "%s", scene.transfer_note().c_str());
}

void block_section(FountainScene& scene, UiState& ui) {
  section("Block shape (fountain kernel)");
  bool changed = ImGui::SliderInt("block x", &ui.block_x, 1, 1024);
  help_marker("Threads per block along x. The grid is sized to cover every particle.");
  changed |= ImGui::SliderInt("block y", &ui.block_y, 1, 1024);
  help_marker("Threads per block along y (the seed uses a 2D grid of 2D blocks, 16x16).");
  const char* presets[] = {"1x1", "2x2", "8x8", "16x16", "32x8", "32x32", "256x1", "1x256"};
  const int px[] = {1, 2, 8, 16, 32, 32, 256, 1}, py[] = {1, 2, 8, 16, 8, 32, 1, 256};
  for (int i = 0; i < 8; ++i) {
    if (i % 4) ImGui::SameLine();
    if (ImGui::SmallButton(presets[i])) {
      ui.block_x = px[i];
      ui.block_y = py[i];
      changed = true;
    }
  }
  if (changed) {
    if (auto err = scene.set_block(BlockShape{ui.block_x, ui.block_y, 1}))
      ui.block_message = *err + "; keeping " + to_string(scene.block());
    else
      ui.block_message.clear();
  }
  const BlockShape& b = scene.block();
  const auto& g = fountain::make_grid(scene.count());
  ImGui::Text("running %s = %lld threads/block, grid %ux%u", to_string(b).c_str(), b.threads(),
              (g.width + b.x - 1) / b.x, (g.height + b.y - 1) / b.y);
  if (b.threads() % 32 && scene.backend() == Backend::Cuda)
    ImGui::TextColored(kDim, "%lld threads is not a multiple of the 32-thread warp", b.threads());
  if (!ui.block_message.empty()) ImGui::TextColored(kWarn, "%s", ui.block_message.c_str());
}

void particles_section(FountainScene& scene, UiState& ui) {
  section("Particles");
  const char* counts[] = {"64x64", "256x256", "512x512", "1024x1024", "2048x2048", "4096x4096"};
  const int sides[] = {64, 256, 512, 1024, 2048, 4096};
  for (int i = 0; i < 6; ++i) {
    if (i % 3) ImGui::SameLine();
    if (ImGui::SmallButton(counts[i])) ui.count_input = sides[i] * sides[i];
  }
  ImGui::InputInt("count", &ui.count_input, 0, 0);
  help_marker("Number of particles (up to 67,108,864). Applied with the button; the old "
              "buffers stay if the new ones cannot be allocated.");
  int variant = scene.variant() == fountain::Variant::Lean ? 0 : 1;
  const bool variant_changed = ImGui::Combo("variant", &variant, "lean (40 B/particle)\0seed (80 B/particle)\0");
  help_marker("lean derives colour and horizontal velocity instead of storing them; seed is the "
              "reference notes' layout. Same physics, half the memory traffic.");
  const bool apply = ImGui::Button("apply count");
  if (apply || variant_changed) {
    if (ui.count_input < 1) {
      ui.count_message = "count " + std::to_string(ui.count_input) + " must be at least 1; keeping " +
                         std::to_string(scene.count());
    } else if (auto err = scene.reconfigure(static_cast<unsigned>(ui.count_input),
                                            variant == 0 ? fountain::Variant::Lean : fountain::Variant::Seed)) {
      ui.count_message = *err + "; keeping " + std::to_string(scene.count());
    } else {
      ui.count_message.clear();
    }
  }
  ImGui::SameLine();
  ImGui::Text("running %u", scene.count());
  if (!ui.count_message.empty()) ImGui::TextColored(kWarn, "%s", ui.count_message.c_str());
  ImGui::SliderFloat("point size", &scene.point_size, 2.f, 200.f, "%.0f");
  help_marker("Sprite size in pixels at distance 1 (drawing only).");

  fountain::Params& p = scene.params();
  if (ImGui::TreeNode("physics")) {
    ImGui::SliderFloat("gravity", &p.gravity, 0.f, 5e-4f, "%.5f");
    help_marker("Vertical speed lost per step.");
    ImGui::SliderFloat("bounce", &p.restitution, 0.f, 1.f);
    help_marker("Fraction of vertical speed kept when a particle hits the table.");
    ImGui::SliderFloat("max age", &p.max_age, 10.f, 2000.f, "%.0f");
    help_marker("Steps a particle lives before respawning at the emitter.");
    ImGui::SliderFloat("table radius", &p.table_radius, 0.5f, 10.f);
    ImGui::SliderFloat("emitter speed", &p.emitter_speed, 0.f, 0.1f);
    ImGui::TreePop();
  }
}

}  // namespace

void draw_control_panel(FountainScene& scene, UiState& ui) {
  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(380, 0), ImGuiCond_FirstUseEver);
  ImGui::Begin("cudaviz");
  backend_section(scene);
  ImGui::Text("scene: fountain   step %lld", scene.steps());
  if (ImGui::Button(ui.paused ? "resume" : "pause")) ui.paused = !ui.paused;
  help_marker("Space");
  ImGui::SameLine();
  if (ImGui::Button("step")) ui.step_once = true;
  help_marker("One simulation step while paused (S).");
  ImGui::SameLine();
  if (ImGui::Button("reset")) ui.reset_requested = true;
  help_marker("Back to the initial state (R).");
  ImGui::SameLine();
  if (ImGui::Button("screenshot")) ui.screenshot_requested = true;
  block_section(scene, ui);
  particles_section(scene, ui);
  if (!ui.error_message.empty()) {
    ImGui::Separator();
    ImGui::TextColored(kWarn, "stopped: %s", ui.error_message.c_str());
    if (ImGui::Button("dismiss and resume")) {
      ui.error_message.clear();
      ui.paused = false;
    }
  }
  ImGui::End();
}

void draw_timing_panel(FountainScene& scene, UiState& ui) {
  ImGui::SetNextWindowPos(ImVec2(ImGui::GetIO().DisplaySize.x - 390, 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(380, 0), ImGuiCond_FirstUseEver);
  ImGui::Begin("timing");
  char label[96];
  auto plot = [&](const char* name, const History& h, const char* unit) {
    std::snprintf(label, sizeof label, "%.3f %s", h.latest(), unit);
    ImGui::PlotLines(name, h.data(), h.size(), h.offset(), label, 0.f, h.max() * 1.2f + 1e-6f, ImVec2(0, 48));
  };
  plot("fps", ui.fps, "fps");
  plot("frame", ui.frame_ms, "ms");
  const bool cuda = scene.backend() == Backend::Cuda;
  plot(cuda ? "kernel (GPU)" : "step (CPU)", scene.kernel_ms, "ms");
  plot(cuda ? "map+step+unmap" : "step+upload", scene.step_ms, "ms");
  plot("draw (GPU)", ui.draw_ms, "ms");
  const double bytes = static_cast<double>(fountain::bytes_per_particle_step(scene.variant())) * scene.count();
  if (scene.kernel_ms.latest() > 0)
    ImGui::Text("kernel: %.2f GB/s, %.3g particles/s", bytes / (scene.kernel_ms.latest() * 1e-3) * 1e-9,
                scene.count() / (scene.kernel_ms.latest() * 1e-3));
  ImGui::End();
}

}  // namespace cv
