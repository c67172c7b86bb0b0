#pragma once
// The life of a background run (a lab, a block-shape sweep): shared by the
// runners so the panels and the --frames summary name states the same way.
#include <atomic>
#include <stdexcept>

namespace cv {

// Lets a caller that runs work on a worker thread (labs, sweeps) watch
// progress and cancel. Bench targets poll it between repetitions and
// variants via check_cancel() in bench/bench.h.
struct RunControl {
  std::atomic<bool> cancel{false};
  std::atomic<float> progress{0.f};  // 0..1 of the current job
};

// Thrown by work that saw RunControl::cancel (bench's check_cancel).
struct Cancelled : std::runtime_error {
  Cancelled() : std::runtime_error("cancelled") {}
};

enum class RunState { Idle, Running, Done, Failed, Cancelled };

inline const char* to_string(RunState s) {
  switch (s) {
    case RunState::Idle:
      return "idle";
    case RunState::Running:
      return "running";
    case RunState::Done:
      return "done";
    case RunState::Failed:
      return "failed";
    case RunState::Cancelled:
      return "cancelled";
  }
  return "?";
}

}  // namespace cv
