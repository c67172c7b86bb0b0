#pragma once
// The scripted runs, each an observer of the frame loop (core/frame_observer.h).
#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "cli.h"
#include "core/frame_observer.h"
#include "soak/soak.h"
#include "soak/window_faults.h"

namespace cv {

// --frames N [--screenshot out.png]: ends the loop after N frames (later while
// a --lab run or --sweep is still running, so the picture shows its results),
// writes the screenshot of the last frame and prints one JSON line of what the
// frames cost. The run fails (1) when a step failed on the way.
class ScriptedRun : public FrameObserver {
 public:
  explicit ScriptedRun(const RunOptions& opt) : opt_(opt) {}
  void before_frame(FrameView& f) override;
  void before_present(FrameView& f) override;
  bool after_frame(FrameView&) override { return !last_frame_; }
  void finish(Context& ctx, nlohmann::ordered_json& summary) override;
  int exit_code(const Context& ctx, std::ostream& err) const override;

 private:
  RunOptions opt_;
  int idle_frames_ = 0;  // frames begun in a row with no --lab run or --sweep running
  bool last_frame_ = false;
};

// --soak N: cycles scenes and counts, samples memory (soak/soak.h).
class SoakObserver : public FrameObserver {
 public:
  SoakObserver(long long frames, Backend backend) : soak_(frames, backend) {}
  void before_frame(FrameView& f) override;
  void finish(Context& ctx, nlohmann::ordered_json& summary) override;
  int exit_code(const Context& ctx, std::ostream& err) const override;

 private:
  SoakRun soak_;
};

// --record FILE: the clip's facts go into the summary ("record"); a clip
// that failed fails the run (1). The recorder itself lives in the Context.
class RecordObserver : public FrameObserver {
 public:
  void finish(Context& ctx, nlohmann::ordered_json& summary) override;
  int exit_code(const Context& ctx, std::ostream& err) const override;
};

// CUDAVIZ_RESIZE_STORM=1: resizes and iconifies the window every pass.
class StormObserver : public FrameObserver {
 public:
  void before_events(GLFWwindow* window) override { storm_.tick(window); }
  void on_minimized() override { storm_.note_zero_framebuffer(); }
  void finish(Context& ctx, nlohmann::ordered_json& summary) override;

 private:
  ResizeStorm storm_;
};

// CUDAVIZ_CLOSE_AT_FRAME=N: asks the window to close at frame N, as its close button does.
// The summary's "close_ms": from that request to the workers stopped (a running lab
// cancelled and joined), the app's own clock, so start-up and a busy machine's
// display server are not in it.
class CloseAtFrame : public FrameObserver {
 public:
  explicit CloseAtFrame(long long frame) : frame_(frame) {}
  void before_frame(FrameView& f) override;
  void finish(Context& ctx, nlohmann::ordered_json& summary) override;

 private:
  long long frame_;
  std::optional<std::chrono::steady_clock::time_point> closed_at_;
};

// The observers the command line and the environment ask for, in the order
// they are called (the summary's writer last).
// The observers `opt` and the configuration's test hooks (CUDAVIZ_RESIZE_STORM,
// CUDAVIZ_CLOSE_AT_FRAME) ask for.
std::vector<std::unique_ptr<FrameObserver>> make_observers(const RunOptions& opt, Backend backend,
                                                          const Config& config);

}  // namespace cv
