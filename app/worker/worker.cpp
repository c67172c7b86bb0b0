#include "worker/worker.h"

#include <algorithm>
#include <chrono>

#include "common/device_select.h"

namespace cv {
namespace {
double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

Worker::~Worker() {
  cancel();
  join();
}

std::optional<std::string> Worker::start(std::vector<Job> jobs, std::function<void()> on_end) {
  if (running()) return std::string("still running: cancel it first");
  if (jobs.empty()) return std::string("nothing to run");
  join();  // the previous thread has finished; reclaim it
  {
    std::lock_guard<std::mutex> lock(mutex_);
    error_.clear();
    started_ = now_s();
    finished_ = 0;
  }
  control_.cancel = false;
  control_.progress = 0.f;
  done_ = 0;
  total_ = static_cast<int>(jobs.size());
  state_ = RunState::Running;
  thread_ = std::thread([this, jobs = std::move(jobs), on_end = std::move(on_end)]() mutable {
    bind_selected_device();  // --device: the runtime's current device is per thread
    work(std::move(jobs), on_end);
  });
  return std::nullopt;
}

void Worker::work(std::vector<Job> jobs, const std::function<void()>& on_end) {
  RunState end = RunState::Done;
  std::string error;
  try {
    for (Job& job : jobs) {
      if (control_.cancel) throw Cancelled();
      control_.progress = 0.f;
      job(control_);
      ++done_;
    }
  } catch (const Cancelled&) {
    end = RunState::Cancelled;
  } catch (const std::exception& e) {
    error = e.what();
    end = RunState::Failed;
  } catch (...) {
    error = "unknown exception";
    end = RunState::Failed;
  }
  if (on_end) on_end();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    error_ = error;
    finished_ = now_s();
  }
  state_ = end;  // last: whoever sees the end state sees the rows and the error
}

void Worker::join() {
  if (thread_.joinable()) thread_.join();
}

float Worker::progress() const {
  if (total_ == 0) return 0.f;
  if (state() == RunState::Done) return 1.f;
  const float p = std::clamp(control_.progress.load(), 0.f, 1.f);
  return std::min(1.f, (static_cast<float>(done_.load()) + p) / static_cast<float>(total_));
}

std::string Worker::error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_;
}

double Worker::seconds() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (started_ == 0) return 0;
  return (finished_ > 0 ? finished_ : now_s()) - started_;
}

}  // namespace cv
