#include "core/frame_watchdog.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "io/atomic_file.h"

namespace cv {

FrameWatchdog::FrameWatchdog(std::chrono::milliseconds limit, OnStall on_stall)
    : limit_(limit),
      on_stall_(std::move(on_stall)),
      last_frame_(std::chrono::steady_clock::now()),
      thread_([this] { watch(); }) {}

FrameWatchdog::~FrameWatchdog() {
  {
    std::lock_guard<std::mutex> lock(m_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void FrameWatchdog::frame_done() {
  std::lock_guard<std::mutex> lock(m_);
  last_frame_ = std::chrono::steady_clock::now();
}

void FrameWatchdog::arm(Rescue rescue) {
  {
    std::lock_guard<std::mutex> lock(m_);
    rescue_ = std::move(rescue);
    if (!armed_) last_frame_ = std::chrono::steady_clock::now();
    armed_ = true;
  }
  cv_.notify_all();
}

bool FrameWatchdog::armed() const {
  std::lock_guard<std::mutex> lock(m_);
  return armed_;
}

void FrameWatchdog::watch() {
  std::unique_lock<std::mutex> lock(m_);
  while (!stop_) {
    if (!armed_ || fired_) {
      cv_.wait(lock, [this] { return stop_ || (armed_ && !fired_); });
      continue;
    }
    const auto deadline = last_frame_ + limit_;
    if (cv_.wait_until(lock, deadline, [this] { return stop_; })) break;
    const auto now = std::chrono::steady_clock::now();
    if (now < last_frame_ + limit_) continue;  // a frame finished meanwhile
    fired_ = true;
    const Rescue r = rescue_;
    const double waited = std::chrono::duration<double>(now - last_frame_).count();
    lock.unlock();
    on_stall_(r, waited);  // the app's ends the process; a test's returns
    lock.lock();
  }
}

void report_stall_and_exit(const FrameWatchdog::Rescue& r, double waited_s,
                           const std::string& rescue_dir) {
  std::string saved;
  if (!r.kernel_text.empty() && !rescue_dir.empty()) {
    const std::string path = (std::filesystem::path(rescue_dir) / "recovered-kernel.cu").string();
    try {
      write_file_atomically(path, r.kernel_text);
      saved = path;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "cudaviz: could not save your kernel to %s: %s\n", path.c_str(), e.what());
    }
  }
  std::fprintf(stderr,
               "cudaviz: the window has not drawn a frame for %.0f s since %s. The GPU driver "
               "stopped OpenGL after that fault and did not tell the window (no reset "
               "notification), so cudaviz cannot continue.\n",
               waited_s, r.why.c_str());
  if (!saved.empty())
    std::fprintf(stderr, "cudaviz: your kernel is saved in %s (open it with --kernel)%s%s.\n",
                 saved.c_str(), r.kernel_path.empty() ? "" : "; it came from ",
                 r.kernel_path.c_str());
  std::fprintf(stderr,
               "cudaviz: start cudaviz again. If windows still hang, the GPU needs a reset "
               "(sudo nvidia-smi -r, or a reboot). Checked mode (the kernel tab's box, on by "
               "default) stops an index past a buffer before it can fault.\n");
  std::fflush(stderr);
  // The frame's thread is inside the driver and never returns: no destructor
  // can run safely, so end here, as a kill would, but with the work saved.
  std::_Exit(1);
}

}  // namespace cv
