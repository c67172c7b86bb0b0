#pragma once
// The windowed app. Setup and teardown mirror each other: window, ImGui,
// context (scenes and panels), scene view, input, observers, in that order;
// torn down in reverse after the workers stop. The frame reads top to bottom:
//
//   poll events -> wait while minimized -> requests -> input -> simulate ->
//   draw the scene -> build and render the UI -> present -> account the frame
//
// Scripted runs (--frames, --soak, fault injection) observe the loop
// (core/frame_observer.h); they are not branches inside it.
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli.h"
#include "core/context.h"
#include "core/frame_observer.h"
#include "core/frame_watchdog.h"
#include "core/input.h"
#include "core/scene_view.h"
#include "core/window.h"

namespace cv {

// Runs until the window closes (or --frames N are drawn). Returns the exit code.
// `config`: the environment as main() read it.
int run_app(const RunOptions& opt, const Config& config);

// Thrown out of App::run when the GL context was lost (window.h, GlContextLost):
// the state to reopen the window with, captured before teardown.
struct ReopenWindow : std::runtime_error {
  ReopenWindow(const std::string& why, presets::Preset state, LaunchPlan::Reopened reopened)
      : std::runtime_error(why), state(std::move(state)), reopened(std::move(reopened)) {}
  presets::Preset state;
  LaunchPlan::Reopened reopened;
};

class App {
 public:
  // Opens the window and sets up everything `opt` asks for. Throws LaunchError
  // for a request that cannot be met (exit 2), anything else on failure (exit 1).
  App(const RunOptions& opt, const LaunchPlan& plan, const Config& config);
  // The frame loop; then teardown. Returns the exit code.
  int run();

 private:
  // Setup (core/app_setup.cpp), in order.
  void setup_scene(const LaunchPlan& plan);
  void setup_panels();
  void setup_presets(const LaunchPlan& plan);
  void setup_reopened();
  void setup_lesson(const LaunchPlan& plan);
  void setup_pacing();
  void setup_record();
  // The frame (core/app.cpp), in order. frame() returns false to end the loop.
  bool frame();
  void apply_requests();
  void toggle_recording();
  // The challenge tab's "run in the scene" / "back to the built-in" (core/challenge_live.cpp).
  void run_live(const challenge::LiveRequest& r);
  void simulate();
  void build_ui();
  void present();
  void account_frame();
  // After the loop: stop the workers, let the observers report.
  int teardown();
  // A lost GL context: the workers stop, the state is captured (the student's
  // kernel in the editor, not running), and ReopenWindow carries it out.
  [[noreturn]] void reopen(const GlContextLost& lost);
  // After a GPU fault: arms the watchdog with the student's kernel to save.
  void watch_after_fault();
  void arm_watchdog(std::string why);
  void stop_workers();  // labs, sweeps, insight and lesson runs: cancelled and joined

  RunOptions opt_;
  GlfwWindow window_;
  ImGuiSession imgui_;
  Context ctx_;
  SceneView view_;
  InputHandler input_;
  std::vector<std::unique_ptr<FrameObserver>> observers_;
  // Last: its thread stops before anything else goes (core/frame_watchdog.h).
  FrameWatchdog watchdog_;
  uint64_t kernel_version_seen_ = 0;  // the user kernel's status the watchdog last looked at
  GlfwWindow::Size size_;  // this frame's
  // This frame's requests, taken from ctx_.ui.requests in one place
  // (apply_requests); what is asked during the frame waits for the next one.
  FrameRequests requests_;
  std::optional<LaunchPlan::Reopened> reopened_;  // this window replaces a lost one
  bool labs_open_ = false;  // the --preset opens the labs window
  // Frame pacing: fixed steps or steps from elapsed time, vsync as applied.
  bool fixed_steps_ = false;
  bool vsync_applied_ = false;
  double sim_pending_ = 0, sim_clock_ = 0, last_time_ = 0, title_time_ = 0;
};

}  // namespace cv
