#pragma once
// The runner started before the first compile needs it: the process, its
// CUDA context (GPU backend) and NVRTC's library load move off the first
// edit-to-running onto a background thread, begun when the kernel tab, a
// lab's "run your kernel" or --kernel first needs them. One thread, joined on
// destruction (RAII); a failure is kept in words and the first load() tries
// again (and says why) as before. The thread stays (asleep) until then: the
// runner asks to die with the thread that started it (PR_SET_PDEATHSIG
// follows the forking thread, not the process).
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "common/device_info.h"

namespace cv::usercode {

class RunnerClient;

class RunnerPrestart {
 public:
  RunnerPrestart() = default;
  ~RunnerPrestart();
  RunnerPrestart(const RunnerPrestart&) = delete;
  RunnerPrestart& operator=(const RunnerPrestart&) = delete;

  // Starts `client` (and, for the GPU backend, loads NVRTC) on the thread; at most once.
  // `warm`, when given, runs there after the start: a throwaway compile, so the
  // compiler's first-use cost (NVRTC's and nvJitLink's set-up) is not the student's.
  void begin(std::shared_ptr<RunnerClient> client, Backend backend, std::function<void()> warm = {});
  bool begun() const;
  // Waits until the start finished (the runner's own start limit bounds it).
  void wait();
  // Once finished: how long the start took (ms) and why it failed ("" when it did not).
  std::optional<double> start_ms() const;
  std::string error() const;

 private:
  std::thread thread_;
  bool begun_ = false;  // once: a finished prestart is not begun again
  mutable std::mutex mutex_;  // guards the results and the flags below
  std::condition_variable changed_;
  bool done_ = false, ending_ = false;
  std::optional<double> start_ms_;
  std::string error_;
};

}  // namespace cv::usercode
