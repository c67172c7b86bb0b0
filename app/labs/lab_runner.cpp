#include "labs/lab_runner.h"

#include "bench/bench.h"

namespace cv::labs {

std::optional<std::string> LabRunner::start(std::vector<BenchOptions> jobs, Backend backend) {
  if (running()) return std::string("a lab is still running: cancel it first");
  if (jobs.empty()) return std::string("nothing to run");
  std::vector<Worker::Job> work;
  for (BenchOptions& j : jobs) {
    const bench::Target* t = bench::find_target(j.target);
    if (!t) return "unknown lab '" + j.target + "'";
    try {
      bench::check_variant(*t, j.variant);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    work.push_back([this, t, opt = std::move(j), backend](RunControl& control) mutable {
      opt.control = &control;
      auto rows = bench::to_json(t->name, t->run(opt, backend));
      std::lock_guard<std::mutex> lock(mutex_);
      for (auto& r : rows) results_.push_back(std::move(r));
    });
  }
  worker_.join();  // the previous run has finished: nothing writes results_ now
  {
    std::lock_guard<std::mutex> lock(mutex_);
    results_.clear();
  }
  // An error must not stick to the worker thread's CUDA state.
  return worker_.start(std::move(work), [backend] {
    if (backend == Backend::Cuda) cudaGetLastError();
  });
}

std::vector<nlohmann::ordered_json> LabRunner::results() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return results_;
}

}  // namespace cv::labs
