#pragma once
// What a scene's UI edits besides the scene itself (polyscope style: each
// scene draws its own panel section, ParticleScene::build_ui). SceneControls
// are the run controls every scene shows (the frame loop acts on them);
// SceneUi is a scene's slider state and the messages about it.
#include <functional>
#include <optional>
#include <string>

#include "insight/launch_ids.h"

namespace cv {
namespace usercode {
class UserKernel;
}

class ParticleScene;

// What a scene's panel edits besides the scene itself (UiState::scene_controls):
// two settings (paused, colour_by) and two one-frame requests (step, reset),
// as references into the app's UI state.
struct SceneControls {
  bool& paused;
  insight::ColourBy& colour_by;  // colour by launch, applied to whichever scene is current
  bool& step_once;
  bool& reset_requested;
};

struct SceneUi {
  int block_x = 16, block_y = 16;  // the sliders; applied only when valid
  std::string block_message;       // why the last shape was refused
  int count_input = 0;
  std::string count_message;
  std::string param_message;  // why the last parameter edit was refused
  void sync_from(const ParticleScene& s);
};

namespace scene_ui {
// The count field and its apply button; `apply` rebuilds the scene's buffers
// and returns why not (the old buffers stay).
void count_row(ParticleScene& scene, SceneUi& sui, const char* what,
               const std::function<std::optional<std::string>(unsigned)>& apply,
               bool force_apply = false);
// The colour-by combo and, when the scene cannot draw the choice, why.
void colour_by_row(ParticleScene& scene, SceneControls& run);
// The slider (or checkbox) of the scene's param `key`: its descriptor's drag
// range, format, label and tooltip, bound through the scene's param_bindings(),
// so the panel and the presets share one name and one range. Returns whether
// the value changed; false (nothing drawn) when the param has no slider.
bool param_slider(ParticleScene& scene, const char* key);
// A row of small buttons that set the count field.
void count_buttons(SceneUi& sui, const char* const* labels, const int* counts, int n);
// "Your kernel": the student's kernel beside the built-in (`uk` null or off:
// nothing drawn): its state, both kernel times and the round trip while yours
// steps the scene (`active`), why the built-in runs instead, and `note`.
void user_kernel_section(const ParticleScene& scene, const usercode::UserKernel* uk, bool active,
                         const std::string& note);
}  // namespace scene_ui

}  // namespace cv
