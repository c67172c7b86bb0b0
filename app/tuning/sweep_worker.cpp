#include "tuning/sweep_worker.h"

namespace cv::tuning {

std::optional<std::string> SweepWorker::start(const SweepOptions& opt) {
  if (running()) return std::string("a sweep is still running: cancel it first");
  if (opt.shapes.empty()) return std::string("no block shapes to sweep");
  SweepPlan plan;
  try {
    plan = plan_sweep(opt);
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
  worker_.join();  // the previous run has finished: nothing reads plan_ or writes rows_ now
  plan_ = plan;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    rows_.clear();
  }
  std::vector<Worker::Job> jobs;
  for (const BlockShape& b : opt.shapes)
    jobs.push_back([this, b](RunControl& control) {
      std::vector<SweepRow> rows = run_shape(plan_, b, &control);
      std::lock_guard<std::mutex> lock(mutex_);
      for (auto& r : rows) rows_.push_back(std::move(r));
    });
  // Keep the render thread's CUDA checks clean of the worker's errors.
  return worker_.start(std::move(jobs), [backend = plan_.backend] {
    if (backend == Backend::Cuda) cudaGetLastError();
  });
}

std::vector<SweepRow> SweepWorker::rows() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return rows_;
}

}  // namespace cv::tuning
