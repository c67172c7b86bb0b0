#pragma once
// The app's mutable state in one place (polyscope keeps its own in one context
// object): the scenes, what the panels ask for, the presentation, the labs and
// tuning areas and the classroom panel. Members are built in the order below
// and destroyed in reverse; the workers (labs, sweeps) are stopped explicitly
// by App::teardown() before anything they read goes away.
#include <optional>
#include <string>

#include "common/device_info.h"
#include "config/config.h"
#include "ui/lab_panel.h"
#include "presets/preset.h"
#include "presets/preset_apply.h"
#include "presets/preset_panel.h"
#include "record/recorder.h"
#include "scenes/scene_set.h"
#include "usercode/client/user_kernel.h"
#include "ui/panels.h"
#include "ui/presentation.h"
#include "ui/tuning_panel.h"
#include "insight/insight_ui.h"
#include "challenge/challenge.h"
#include "class/class_room.h"
#include "lessons/lesson_player.h"
#include "ui/kernel_panel.h"

namespace cv {

// What run_app checks before a window opens (a bad flag or preset is reported
// without a window flashing up).
struct LaunchPlan {
  Backend backend = Backend::Cpu;
  std::optional<presets::Preset> preset;  // --preset, merged with the command line
  presets::Report preset_report;          // what the file had that cannot be used
  SceneKind first_scene;  // the registry's first (key 1) unless named
  std::optional<lessons::Lesson> lesson;  // --lesson, parsed and checked
  std::vector<std::string> lesson_problems;  // --lesson without --frames: shown in the tab
  std::string kernel_source;  // --kernel FILE.cu: the file's text, submitted once the window is up
  // Set when the window is reopened after its GL context was lost (core/app.h, ReopenWindow).
  struct Reopened {
    std::string why;                       // shown in the window and the --frames summary
    std::string kernel_text, kernel_path;  // the editor's text, back in the tab, not running
    int count = 0;                         // reopens so far
  };
  std::optional<Reopened> reopened;
};

// A command-line request that cannot be met once the window is open (a count
// that cannot be allocated, a refused block, an unknown lab): exit status 2.
class LaunchError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Context {
  Context(Backend b, const Config& config);

  const Config config;  // the environment, read once by main() (config/config.h)
  Backend backend;
  // The student's kernel: the editor submits, the fountain scene
  // runs it; before the scenes so it outlives their pointer to it.
  usercode::UserKernel user_kernel;
  SceneSet scenes;
  UiState ui;
  Presentation presentation;
  LabPanel labs;
  TuningUi tuning;
  insight_ui::InsightUi insight;  // the views inside the kernel
  KernelPanel kernel_panel;  // the student's kernel's editor, the "kernel" tab
  // The control panel's doctor findings, probed here (not in a draw call).
  ui::SystemSection system;
  presets::PresetPanel preset_panel;
  classvote::ClassRoom class_room;  // the class votes from phones: off until started
  challenge::Challenge challenge;   // the class writes kernels (its API joins the class server)
  lessons::LessonPlayer lesson;  // the lesson tab
  ui::Layout layout;  // where the panels go this frame (ui/layout.h)
  record::Recorder recorder;  // --record and the record button (GL objects: before the window goes)
  presets::Report preset_report;  // --preset: what was skipped (for the summary)
  bool preset_lab = false;        // a preset started a lab run (a scripted run waits for it)
  bool gl_debug = false;          // KHR_debug output is on
  long long frame = 0;            // frames drawn so far
  std::string reopened_because;   // this window replaces one whose GL context was lost

  presets::AppState app_state() { return {scenes, ui, labs, presentation, &user_kernel}; }
};

}  // namespace cv
