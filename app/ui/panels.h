#pragma once
// The ImGui panels of the window. They read and edit the scene and the UI
// state; they never call kernels directly.
#include <imgui.h>

#include <optional>
#include <string>

#include "scenes/particle_scene.h"
#include "scenes/scene_factory.h"
#include "timing/frame_timers.h"

namespace cv {

// Per scene: its sliders and the messages about them (each scene keeps its own).
struct SceneUi {
  int block_x = 16, block_y = 16;  // the sliders; applied only when valid
  std::string block_message;       // why the last shape was refused
  int count_input = 0;
  std::string count_message;
  void sync_from(const ParticleScene& s) {
    block_x = s.block().x;
    block_y = s.block().y;
    count_input = static_cast<int>(s.count());
  }
};

// What the panels ask the frame loop to do, and what they show.
struct UiState {
  bool paused = false;
  bool step_once = false;
  bool reset_requested = false;
  bool screenshot_requested = false;
  bool camera_reset_requested = false;
  std::optional<SceneKind> scene_request;  // switch at the start of the next frame
  std::string scene_message;               // why the last switch failed
  std::string error_message;               // a failed step: call and error name

  // How particles reach the screen: GL point sprites, or the CUDA splatter
  // (one-pixel additive points; CUDA backend only). Auto picks the splatter
  // where GL points cannot keep up (see kSplatAutoCount).
  enum class Renderer { Auto, Sprites, Splat };
  Renderer renderer = Renderer::Auto;
  bool splat_active = false;     // what this frame used
  std::string renderer_message;  // why the splatter is not used when asked for

  History fps{240}, frame_ms{240}, draw_ms{240}, splat_ms{240};
  History splat_map_ms{240}, splat_kernel_ms{240};  // parts of splat_ms
  History splat_sync_wait_ms{240};                   // external path: CPU waits
  History splat_upload_ms{240};                     // GL: image PBO -> texture
};

// From this many particles on, Auto draws with the splatter: on the H100 GL
// points take ~26 ms at 16M (0.4-0.6 G points/s) while the splat takes ~0.35 ms.
constexpr unsigned kSplatAutoCount = 2u << 20;
const char* to_string(UiState::Renderer r);
std::optional<UiState::Renderer> parse_renderer(const std::string& s);

void draw_control_panel(ParticleScene& scene, SceneKind kind, SceneUi& sui, UiState& ui);
void draw_timing_panel(ParticleScene& scene, UiState& ui);

// Scene-specific sections (ui/scene_panels.cpp).
void draw_scene_section(ParticleScene& scene, SceneUi& sui);

// Shared widgets.
namespace ui {
extern const ImVec4 kWarn, kDim, kGood, kBad;
void section(const char* title);
void tooltip(const char* text);  // for the item just drawn
std::string si(double v);        // 1.23e9 -> "1.23 G"
}  // namespace ui

}  // namespace cv
