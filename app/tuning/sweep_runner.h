#pragma once
// Runs a block-shape sweep on a worker thread for the sweep window: the same
// plan and per-shape runs as `cudaviz sweep` (tuning/sweep.h), progress over
// all shapes, cancel between (and, where the target polls, within) shapes.
// Destruction cancels and joins.
#include "worker/run_state.h"
#include <atomic>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cli.h"
#include "tuning/sweep.h"

namespace cv::tuning {

class SweepRunner {
 public:
  using State = RunState;

  SweepRunner() = default;
  ~SweepRunner();
  SweepRunner(const SweepRunner&) = delete;
  SweepRunner& operator=(const SweepRunner&) = delete;

  // Plans the sweep (target, variant, backend from `opt`; opt.shapes the list)
  // and starts it. Returns why not (a sweep running, a bad target or variant,
  // no shapes); nothing runs then and the last results stay.
  std::optional<std::string> start(const SweepOptions& opt);
  void cancel();
  void join();  // waits for the worker; returns at once when none runs

  State state() const { return state_.load(); }
  bool running() const { return state() == State::Running; }
  float progress() const;  // 0..1 over all shapes
  int shapes_done() const { return done_.load(); }
  int shapes_total() const { return total_; }

  std::vector<SweepRow> rows() const;              // so far, in shape order
  std::string error() const;                       // when Failed
  const SweepPlan& plan() const { return plan_; }  // of the last start()

 private:
  void work(std::vector<BlockShape> shapes);

  std::thread worker_;
  RunControl control_;
  std::atomic<State> state_{State::Idle};
  std::atomic<int> done_{0};
  int total_ = 0;
  SweepPlan plan_;
  mutable std::mutex mutex_;  // guards rows_, error_
  std::vector<SweepRow> rows_;
  std::string error_;
};

using cv::to_string;  // RunState

}  // namespace cv::tuning
