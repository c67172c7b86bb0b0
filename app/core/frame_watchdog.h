#pragma once
// The last resort after a GPU fault. On some systems (seen on the lent H100,
// NVIDIA GLX, driver 580) a CUDA fault in any process stops OpenGL for every
// process until the GPU is reset, and a context without reset notification is
// never told: the frame loop then waits inside the driver forever. Once armed
// (after a fault), a thread watches the frames; if none finishes within the
// limit it saves the student's kernel, says what happened and ends the process,
// so a hang never costs the student their work. Unarmed it only sleeps.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace cv {

class FrameWatchdog {
 public:
  // What the watchdog keeps to save when it fires (copied at arm time, on the
  // frame's thread: the watchdog thread never reads app state).
  struct Rescue {
    std::string why;          // the fault that armed it, in words
    std::string kernel_text;  // the editor's text ("" when there is none)
    std::string kernel_path;  // where it came from ("" when never saved)
  };
  // `on_stall` runs on the watchdog's thread with the rescue and the seconds
  // waited; the app's saves the kernel, reports and ends the process.
  using OnStall = std::function<void(const Rescue&, double)>;
  FrameWatchdog(std::chrono::milliseconds limit, OnStall on_stall);
  ~FrameWatchdog();
  FrameWatchdog(const FrameWatchdog&) = delete;
  FrameWatchdog& operator=(const FrameWatchdog&) = delete;

  // From the frame's thread: a frame finished.
  void frame_done();
  // From the frame's thread: a GPU fault happened; from now on a frame that
  // takes longer than the limit fires. Re-arming updates the rescue.
  void arm(Rescue rescue);
  bool armed() const;
  std::chrono::milliseconds limit() const { return limit_; }

 private:
  void watch();

  const std::chrono::milliseconds limit_;
  OnStall on_stall_;
  mutable std::mutex m_;
  std::condition_variable cv_;
  bool armed_ = false, stop_ = false, fired_ = false;
  std::chrono::steady_clock::time_point last_frame_;
  Rescue rescue_;
  std::thread thread_;  // last: starts after everything it reads exists
};

// The app's reaction (core/frame_watchdog.cpp): writes the kernel to
// `<user config dir>/cudaviz/recovered-kernel.cu` (atomically), prints what
// happened and what to do, and ends the process with exit status 1.
[[noreturn]] void report_stall_and_exit(const FrameWatchdog::Rescue& r, double waited_s,
                                        const std::string& rescue_dir);

}  // namespace cv
