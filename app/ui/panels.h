#pragma once
// The ImGui panels of the window. They read and edit the scene and the UI
// state; they never call kernels directly.
#include <imgui.h>

#include <optional>
#include <string>

#include "scenes/particle_scene.h"
#include "scenes/scene_ui.h"
#include "scenes/scene_factory.h"
#include "timing/frame_pacing.h"
#include "ui/layout.h"
#include "timing/frame_timers.h"
#include "ui/record_controls.h"
#include "ui/system_panel.h"
#include "widgets/widgets.h"

namespace cv {

// What the panels ask the frame loop to do, and what they show.
// (paused, step_once, reset_requested: SceneControls, drawn by every scene.)
struct UiState : SceneControls {
  bool screenshot_requested = false;
  bool camera_reset_requested = false;
  std::optional<SceneKind> scene_request;  // switch at the start of the next frame
  std::string scene_message;               // why the last switch failed
  std::string error_message;               // a failed step: call and error name
  int lesson_move = 0;                     // lesson steps to move (PageDown/PageUp, arrows)

  // How particles reach the screen: GL point sprites, or the CUDA splatter
  // (one-pixel additive points; CUDA backend only). Auto picks the splatter
  // where GL points cannot keep up (see kSplatAutoCount).
  enum class Renderer { Auto, Sprites, Splat };
  Renderer renderer = Renderer::Auto;
  bool splat_active = false;     // what this frame used
  std::string renderer_message;  // why the splatter is not used when asked for

  // Frame pacing: vsync and fps cap as chosen, and how many fixed simulation
  // steps the last frame ran (sim_behind: a slow frame dropped simulated time).
  pacing::Settings pacing;
  int fps_cap_input = 0;       // the field; applied only when valid
  std::string pacing_message;  // why the last fps cap was refused
  int sim_steps = 0;
  bool sim_behind = false;

  History fps{240}, frame_ms{240}, draw_ms{240}, splat_ms{240};
  History splat_map_ms{240}, splat_kernel_ms{240};  // parts of splat_ms
  History splat_sync_wait_ms{240};                   // external path: CPU waits
  History splat_upload_ms{240};                     // GL: image PBO -> texture
  std::string splat_transfer;                        // how the splat image reaches GL
  RecordControls record;  // the record button and the clip's state (ui/record_controls.h)
};

// From this many particles on, Auto draws with the splatter: on the H100 GL
// points take ~26 ms at 16M (0.4-0.6 G points/s) while the splat takes ~0.35 ms.
constexpr unsigned kSplatAutoCount = 2u << 20;
const char* to_string(UiState::Renderer r);
std::optional<UiState::Renderer> parse_renderer(const std::string& s);

// The side panels, where the layout puts them (ui/layout.h).
void draw_control_panel(ParticleScene& scene, SceneKind kind, SceneUi& sui, UiState& ui,
                        ui::Layout& layout, ui::SystemSection& system);
void draw_timing_panel(ParticleScene& scene, UiState& ui, ui::Layout& layout);

}  // namespace cv
