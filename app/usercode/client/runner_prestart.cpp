#include "usercode/client/runner_prestart.h"

#include <exception>

#include "usercode/client/runner_client.h"
#include "usercode/compile/nvrtc_api.h"

namespace cv::usercode {

RunnerPrestart::~RunnerPrestart() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    ending_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void RunnerPrestart::begin(std::shared_ptr<RunnerClient> client, Backend backend, std::function<void()> warm) {
  if (begun_ || !client) return;
  begun_ = true;
  thread_ = std::thread([this, client = std::move(client), backend, warm = std::move(warm)] {
    const auto t0 = std::chrono::steady_clock::now();
    std::string why;
    try {
      client->start();  // the process, and on a GPU its CUDA context (runner's hello)
    } catch (const std::exception& e) {
      why = e.what();
    }
    // The first compile would otherwise dlopen NVRTC; its own error shows at that compile.
    if (backend == Backend::Cuda) (void)NvrtcApi::get();
    if (warm) {
      try {
        warm();
      } catch (const std::exception&) {  // a warm-up only: the real compile says what is wrong
      }
    }
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::unique_lock<std::mutex> lock(mutex_);
    start_ms_ = ms;
    error_ = why;
    done_ = true;
    changed_.notify_all();
    // Asleep until the owner goes: the runner it started dies with this thread.
    changed_.wait(lock, [this] { return ending_; });
  });
}

bool RunnerPrestart::begun() const { return begun_; }

void RunnerPrestart::wait() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [this] { return done_ || !begun_; });
}

std::optional<double> RunnerPrestart::start_ms() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return start_ms_;
}

std::string RunnerPrestart::error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_;
}

}  // namespace cv::usercode
