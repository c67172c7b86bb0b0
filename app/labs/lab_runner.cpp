#include "labs/lab_runner.h"

#include <chrono>

#include "bench/bench.h"
#include "common/device_select.h"

namespace cv::labs {

namespace {
double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

LabRunner::~LabRunner() {
  cancel();
  join();
}

std::optional<std::string> LabRunner::start(std::vector<BenchOptions> jobs, Backend backend) {
  if (running()) return std::string("a lab is still running: cancel it first");
  if (jobs.empty()) return std::string("nothing to run");
  for (const BenchOptions& j : jobs) {
    const bench::Target* t = bench::find_target(j.target);
    if (!t) return "unknown lab '" + j.target + "'";
    try {
      bench::check_variant(*t, j.variant);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
  }
  join();  // the previous worker has finished; reclaim it
  {
    std::lock_guard<std::mutex> lock(mutex_);
    results_.clear();
    error_.clear();
    started_ = now_s();
    finished_ = 0;
  }
  control_.cancel = false;
  control_.progress = 0.f;
  jobs_done_ = 0;
  jobs_total_ = static_cast<int>(jobs.size());
  state_ = State::Running;
  worker_ = std::thread(
      [this, jobs = std::move(jobs), backend]() mutable { work(std::move(jobs), backend); });
  return std::nullopt;
}

void LabRunner::work(std::vector<BenchOptions> jobs, Backend backend) {
  State end = State::Done;
  bind_selected_device();  // --device: the runtime's current device is per thread
  try {
    for (BenchOptions& opt : jobs) {
      if (control_.cancel) throw bench::Cancelled();
      const bench::Target& t = *bench::find_target(opt.target);
      opt.control = &control_;
      control_.progress = 0.f;
      std::vector<bench::Measurement> ms = t.run(opt, backend);
      auto rows = bench::to_json(t.name, ms);
      {
        std::lock_guard<std::mutex> lock(mutex_);
        for (auto& r : rows) results_.push_back(std::move(r));
      }
      ++jobs_done_;
    }
  } catch (const bench::Cancelled&) {
    end = State::Cancelled;
  } catch (const std::exception& e) {
    std::lock_guard<std::mutex> lock(mutex_);
    error_ = e.what();
    end = State::Failed;
  } catch (...) {
    std::lock_guard<std::mutex> lock(mutex_);
    error_ = "unknown exception";
    end = State::Failed;
  }
  if (backend == Backend::Cuda)
    cudaGetLastError();  // an error must not stick to the render thread's next call
  {
    std::lock_guard<std::mutex> lock(mutex_);
    finished_ = now_s();
  }
  state_ = end;
}

void LabRunner::cancel() {
  control_.cancel = true;
}

void LabRunner::join() {
  if (worker_.joinable()) worker_.join();
}

float LabRunner::progress() const {
  if (jobs_total_ == 0) return 0.f;
  if (state() == State::Done) return 1.f;
  const float p = std::min(1.f, std::max(0.f, control_.progress.load()));
  return std::min(1.f,
                  (static_cast<float>(jobs_done_.load()) + p) / static_cast<float>(jobs_total_));
}

std::vector<nlohmann::ordered_json> LabRunner::results() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return results_;
}

std::string LabRunner::error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_;
}

double LabRunner::seconds() const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (started_ == 0) return 0;
  return (finished_ > 0 ? finished_ : now_s()) - started_;
}

}  // namespace cv::labs
