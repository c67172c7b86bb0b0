#pragma once
// The life of a background run (a lab, a block-shape sweep): shared by the
// runners so the panels and the --frames summary name states the same way.
namespace cv {

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
