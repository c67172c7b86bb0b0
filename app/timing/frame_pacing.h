#pragma once
// Frame pacing: the simulation advances in fixed steps of simulated
// time, as many per frame as the elapsed wall time asks for, so a fast GPU and
// a slow one show the same motion; an optional fps cap sleeps the rest of a
// frame. Pure functions, tested without a window.
#include <optional>
#include <string>

namespace cv::pacing {

// One step of the kernels' own units: the documents advance "one step per frame"
// and were tuned on 60 Hz displays, so a step is 1/60 s of wall time.
constexpr double kStepSeconds = 1.0 / 60.0;
// A frame that took longer than this many steps runs only this many and drops
// the rest: a slow machine then shows slower motion instead of spiralling
// (more steps per frame -> longer frames -> more steps ...).
constexpr int kMaxStepsPerFrame = 4;
// Frame times within this fraction of a step of a whole number of steps count
// as exactly that many (vsync jitter would otherwise give 0,2,1,... steps).
constexpr double kSnapFraction = 0.1;

struct StepPlan {
  int steps = 0;         // fixed steps to run this frame
  double pending = 0.0;  // simulated seconds still owed, carried to the next frame
  bool dropped = false;  // time was dropped because of kMaxStepsPerFrame
};

// Adds `elapsed` wall seconds to `pending` and returns the steps to run now.
// Negative or non-finite elapsed counts as 0 (a clock that went backwards).
StepPlan plan_steps(double pending, double elapsed, double step = kStepSeconds,
                    int max_steps = kMaxStepsPerFrame);

// What the user chose (control panel, presets, --vsync, --fps-cap).
struct Settings {
  bool vsync = true;
  int fps_cap = 0;  // frames per second; 0: no cap
};

// fps cap: 0 is off, otherwise kMinFpsCap..kMaxFpsCap frames per second.
constexpr int kMinFpsCap = 10, kMaxFpsCap = 1000;
// Why `cap` cannot be used (names the value and the limits); nullopt if fine.
std::optional<std::string> check_fps_cap(long long cap);
// Seconds to wait so that a frame that started at `frame_start` ends no
// earlier than 1/cap later; 0 when the cap is off or the frame was slow.
double cap_wait(double frame_start, double now, int cap);

}  // namespace cv::pacing
