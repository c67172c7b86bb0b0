#include "tuning/sweep_runner.h"

#include <algorithm>

#include "common/device_select.h"

namespace cv::tuning {

SweepRunner::~SweepRunner() {
  cancel();
  join();
}

std::optional<std::string> SweepRunner::start(const SweepOptions& opt) {
  if (running()) return std::string("a sweep is still running: cancel it first");
  if (opt.shapes.empty()) return std::string("no block shapes to sweep");
  SweepPlan plan;
  try {
    plan = plan_sweep(opt);
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
  join();  // the previous worker has finished; reclaim it
  plan_ = plan;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    rows_.clear();
    error_.clear();
  }
  control_.cancel = false;
  control_.progress = 0.f;
  done_ = 0;
  total_ = static_cast<int>(opt.shapes.size());
  state_ = State::Running;
  worker_ = std::thread([this, shapes = opt.shapes]() mutable {
    bind_selected_device();  // --device: the runtime's current device is per thread
    work(std::move(shapes));
  });
  return std::nullopt;
}

void SweepRunner::work(std::vector<BlockShape> shapes) {
  State end = State::Done;
  try {
    for (const BlockShape& b : shapes) {
      if (control_.cancel) throw bench::Cancelled();
      control_.progress = 0.f;
      std::vector<SweepRow> rows = run_shape(plan_, b, &control_);
      {
        std::lock_guard<std::mutex> lock(mutex_);
        for (auto& r : rows) rows_.push_back(std::move(r));
      }
      ++done_;
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
  if (plan_.backend == Backend::Cuda) cudaGetLastError();  // keep the render thread's checks clean
  state_ = end;
}

void SweepRunner::cancel() {
  control_.cancel = true;
}

void SweepRunner::join() {
  if (worker_.joinable()) worker_.join();
}

float SweepRunner::progress() const {
  if (total_ == 0) return 0.f;
  if (state() == State::Done) return 1.f;
  const float p = std::clamp(control_.progress.load(), 0.f, 1.f);
  return std::min(1.f, (static_cast<float>(done_.load()) + p) / static_cast<float>(total_));
}

std::vector<SweepRow> SweepRunner::rows() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return rows_;
}

std::string SweepRunner::error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return error_;
}

}  // namespace cv::tuning
