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

// What the panels show and edit, in three parts by lifetime (docs/architecture.md
// "A frame"):
//   settings  what the user chose; persists, and presets capture and apply it;
//   requests  one-frame asks from panels, keys, presets, lessons and the soak,
//             taken in one place (App::apply_requests, at the start of the
//             next frame) and acted on by that frame;
//   stats     written by the frame (times, what ran, why something failed),
//             read by the panels, the summaries and lessons.
// How particles reach the screen: GL point sprites, or the CUDA splatter
// (one-pixel additive points; CUDA backend only). Auto picks the splatter
// where GL points cannot keep up (see kSplatAutoCount).
enum class RendererChoice { Auto, Sprites, Splat };

struct UiSettings {
  bool paused = false;
  // Colour by launch (--colour-by, presets' ui.colour_by), applied to whichever
  // scene is current: every scene's panel shows the choice (build_ui).
  insight::ColourBy colour_by = insight::ColourBy::Normal;
  RendererChoice renderer = RendererChoice::Auto;
  pacing::Settings pacing;  // vsync and the fps cap as chosen
};

struct FrameRequests {
  bool step_once = false;             // one simulation step while paused
  bool reset = false;                 // the scene back to its start
  bool screenshot = false;            // cudaviz-<time>.png at present
  bool camera_reset = false;          // the scene's default view
  std::optional<SceneKind> scene;     // switch to this scene
  int lesson_move = 0;                // lesson steps to move (PageDown/PageUp, arrows)
};

struct FrameStats {
  // Frame pacing: how many fixed simulation steps the last frame ran
  // (sim_behind: a slow frame dropped simulated time).
  int sim_steps = 0;
  bool sim_behind = false;
  bool splat_active = false;  // what this frame drew with
  History fps{240}, frame_ms{240}, draw_ms{240}, splat_ms{240};
  History splat_map_ms{240}, splat_kernel_ms{240};  // parts of splat_ms
  History splat_sync_wait_ms{240};                   // external path: CPU waits
  History splat_upload_ms{240};                     // GL: image PBO -> texture
  std::string splat_transfer;                        // how the splat image reaches GL
  std::string error_message;     // a failed step: call and error name (the scene pauses)
  std::string scene_message;     // why the last switch failed
  std::string renderer_message;  // why the splatter is not used when asked for
};

struct UiState {
  using Renderer = RendererChoice;  // spelled UiState::Renderer where it is used
  UiSettings settings;
  FrameRequests requests;
  FrameStats stats;
  // The panels' own fields: the fps cap as typed (applied only when valid) and
  // why the last one was refused; the CSV export's outcome (ui/timing_export.h);
  // the record button and the clip's state.
  int fps_cap_input = 0;
  std::string pacing_message;
  std::string export_message;
  bool export_failed = false;
  RecordControls record;  // (ui/record_controls.h)
  // What a scene's panel edits (ParticleScene::build_ui): views into the above.
  SceneControls scene_controls() {
    return {settings.paused, settings.colour_by, requests.step_once, requests.reset};
  }
};

// From this many particles on, Auto draws with the splatter: on the H100 GL
// points take ~26 ms at 16M (0.4-0.6 G points/s) while the splat takes ~0.35 ms.
constexpr unsigned kSplatAutoCount = 2u << 20;
const char* to_string(RendererChoice r);
std::optional<RendererChoice> parse_renderer(const std::string& s);

// The side panels, where the layout puts them (ui/layout.h).
void draw_control_panel(ParticleScene& scene, SceneKind kind, SceneUi& sui, UiState& ui,
                        ui::Layout& layout, ui::SystemSection& system);
void draw_timing_panel(ParticleScene& scene, UiState& ui, ui::Layout& layout);

}  // namespace cv
