#pragma once
// Runs bench targets (the labs) off the render path on the shared Worker
// (worker/worker.h): a list of jobs, progress through a RunControl, the JSON
// rows `cudaviz bench` would print. Cancel stops at the target's next
// check_cancel(); destruction cancels and joins.
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "bench/bench_options.h"
#include "cli.h"
#include "common/device_info.h"
#include "worker/worker.h"

namespace cv::bench {
struct TargetFailure;
}

namespace cv::labs {

// A target that failed but reports (bench kernel: a compile error, a fault) as
// a results row: its JSON line with `error` (in words) and `correct` null.
nlohmann::ordered_json failure_row(const bench::TargetFailure& f);

class LabWorker {
 public:
  using State = RunState;

  // Starts the jobs (each a bench target with its options) one after another.
  // Returns why it could not start (a run in progress, an unknown target or
  // variant, no jobs); nothing runs then. Results of an earlier run are cleared.
  std::optional<std::string> start(std::vector<BenchOptions> jobs, Backend backend);
  void cancel() { worker_.cancel(); }
  // Waits for the worker; returns at once when none runs.
  void join() { worker_.join(); }

  State state() const { return worker_.state(); }
  bool running() const { return worker_.running(); }
  // Over all jobs, 0..1.
  float progress() const { return worker_.progress(); }
  int jobs_done() const { return worker_.jobs_done(); }
  int jobs_total() const { return worker_.jobs_total(); }

  // Rows so far, in order (one per measurement, as `cudaviz bench` prints them).
  std::vector<nlohmann::ordered_json> results() const;
  // The exception's message when state() is Failed.
  std::string error() const { return worker_.error(); }
  // Seconds the last run took (so far, while running).
  double seconds() const { return worker_.seconds(); }

 private:
  mutable std::mutex mutex_;  // guards results_ (the worker appends)
  std::vector<nlohmann::ordered_json> results_;
  Worker worker_;  // last: destroyed (cancelled, joined) before what its jobs write
};

using cv::to_string;  // RunState

}  // namespace cv::labs
