#pragma once
// Runs a block-shape sweep for the sweep window on the shared Worker
// (worker/worker.h): the same plan and per-shape runs as `cudaviz sweep`
// (tuning/sweep.h), progress over all shapes, cancel between (and, where the
// target polls, within) shapes. Destruction cancels and joins.
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "cli.h"
#include "tuning/sweep.h"
#include "worker/worker.h"

namespace cv::tuning {

class SweepWorker {
 public:
  using State = RunState;

  // Plans the sweep (target, variant, backend from `opt`; opt.shapes the list)
  // and starts it. Returns why not (a sweep running, a bad target or variant,
  // no shapes); nothing runs then and the last results stay.
  std::optional<std::string> start(const SweepOptions& opt);
  void cancel() { worker_.cancel(); }
  void join() { worker_.join(); }  // waits for the worker; returns at once when none runs

  State state() const { return worker_.state(); }
  bool running() const { return worker_.running(); }
  float progress() const { return worker_.progress(); }  // 0..1 over all shapes
  int shapes_done() const { return worker_.jobs_done(); }
  int shapes_total() const { return worker_.jobs_total(); }

  std::vector<SweepRow> rows() const;                    // so far, in shape order
  std::string error() const { return worker_.error(); }  // when Failed
  const SweepPlan& plan() const { return plan_; }        // of the last start()

 private:
  SweepPlan plan_;
  mutable std::mutex mutex_;  // guards rows_ (the worker appends)
  std::vector<SweepRow> rows_;
  Worker worker_;  // last: destroyed (cancelled, joined) before what its jobs read and write
};

using cv::to_string;  // RunState

}  // namespace cv::tuning
