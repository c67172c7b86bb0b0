#pragma once
// Runs bench targets (the labs) off the render path: one worker thread works
// through a list of jobs, reporting progress through a RunControl and
// collecting the JSON rows `cudaviz bench` would print. Cancel stops at the
// target's next check_cancel(); destruction cancels and joins.
#include "worker/run_state.h"
#include <atomic>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cli.h"
#include "common/device_info.h"

namespace cv::labs {

class LabRunner {
 public:
  using State = RunState;

  LabRunner() = default;
  ~LabRunner();
  LabRunner(const LabRunner&) = delete;
  LabRunner& operator=(const LabRunner&) = delete;

  // Starts the jobs (each a bench target with its options) one after another.
  // Returns why it could not start (a run in progress, an unknown target or
  // variant, no jobs); nothing runs then. Results of an earlier run are cleared.
  std::optional<std::string> start(std::vector<BenchOptions> jobs, Backend backend);
  void cancel();
  // Waits for the worker; returns at once when none runs.
  void join();

  State state() const { return state_.load(); }
  bool running() const { return state() == State::Running; }
  // Over all jobs, 0..1.
  float progress() const;
  int jobs_done() const { return jobs_done_.load(); }
  int jobs_total() const { return jobs_total_; }

  // Rows so far, in order (one per measurement, as `cudaviz bench` prints them).
  std::vector<nlohmann::ordered_json> results() const;
  // The exception's message when state() is Failed.
  std::string error() const;
  // Seconds the last run took (so far, while running).
  double seconds() const;

 private:
  void work(std::vector<BenchOptions> jobs, Backend backend);

  std::thread worker_;
  RunControl control_;
  std::atomic<State> state_{State::Idle};
  std::atomic<int> jobs_done_{0};
  int jobs_total_ = 0;
  mutable std::mutex mutex_;  // guards results_, error_, the times
  std::vector<nlohmann::ordered_json> results_;
  std::string error_;
  double started_ = 0, finished_ = 0;
};

using cv::to_string;  // RunState

}  // namespace cv::labs
