#pragma once
// Presets and the running app: capture() reads the whole state into a Preset,
// apply() sets what a Preset holds (building the scenes it names). Needs the
// GL context (scenes own GL buffers), so it runs on the render thread, between
// frames.
#include "cli.h"
#include "presets/preset.h"

namespace cv::usercode {
class UserKernel;
}

namespace cv {

class SceneSet;
class LabPanel;
struct UiState;
struct Presentation;

namespace presets {

struct AppState {
  SceneSet& scenes;
  UiState& ui;
  LabPanel& labs;
  Presentation& presentation;
  usercode::UserKernel* user_kernel = nullptr;  // a preset's kernel is submitted to it
};

// Built scenes only: a scene never visited has nothing to say.
Preset capture(AppState& app);

struct ApplyResult {
  bool lab_started = false;  // "run" asked for a lab run and it started
};

// Sets what `p` holds; what this machine cannot take (a count over the CPU
// backend's limit, a block the device refuses, a scene that cannot be built)
// goes to report.invalid by JSON path, and that part keeps its current state.
ApplyResult apply(const Preset& p, AppState& app, Report& report);

// The command line on top of a preset: --scene (when given), --n, --variant,
// --block, --ui-scale and --present win over the file. Pure.
void merge_command_line(Preset& p, const RunOptions& opt);

}  // namespace presets
}  // namespace cv
