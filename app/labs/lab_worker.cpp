#include "labs/lab_worker.h"

#include "bench/bench.h"

namespace cv::labs {

nlohmann::ordered_json failure_row(const bench::TargetFailure& f) {
  nlohmann::ordered_json row = f.line;
  if (!row.contains("error") || !row["error"].is_string() || row["error"].get<std::string>().empty())
    row["error"] = f.what();
  row["correct"] = nullptr;  // no answer to check
  return row;
}

std::optional<std::string> LabWorker::start(std::vector<BenchOptions> jobs, Backend backend) {
  if (running()) return std::string("a lab is still running: cancel it first");
  if (jobs.empty()) return std::string("nothing to run");
  std::vector<Worker::Job> work;
  for (BenchOptions& j : jobs) {
    const bench::Target* t = bench::find_target(j.target);
    if (!t) return "unknown lab '" + j.target + "'";
    j.variant = bench::canonical_variant(*t, j.variant);
    try {
      bench::check_variant(*t, j.variant);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    work.push_back([this, t, opt = std::move(j), backend](RunControl& control) mutable {
      opt.control = &control;
      std::vector<nlohmann::ordered_json> rows;
      try {
        rows = bench::to_json(t->name, t->run(opt, backend));
      } catch (const bench::TargetFailure& f) {
        rows = {failure_row(f)};  // the student's kernel did not compile or run: its row says why
      }
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

std::vector<nlohmann::ordered_json> LabWorker::results() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return results_;
}

}  // namespace cv::labs
