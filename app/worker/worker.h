#pragma once
// The one worker type for long runs off the render path (labs, block-shape
// sweeps): a thread that runs a list of jobs in order, with progress over all
// of them, cancel between jobs (and within one where the job polls its
// RunControl), the error of a failed run, and the time it took. Destruction
// cancels and joins. Runners (labs::LabWorker, tuning::SweepWorker) add what
// their jobs are and where their rows go.
#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "worker/run_state.h"

namespace cv {

class Worker {
 public:
  // One job; throws Cancelled to stop, anything else to fail the run.
  using Job = std::function<void(RunControl&)>;

  Worker() = default;
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Runs the jobs one after another on a new thread, then `on_end` on that
  // thread (e.g. to clear a CUDA error there). Returns why not (a run in
  // progress, no jobs); nothing runs then.
  std::optional<std::string> start(std::vector<Job> jobs, std::function<void()> on_end = {});
  void cancel() { control_.cancel = true; }
  void join();  // waits for the thread; returns at once when none runs

  RunState state() const { return state_.load(); }
  bool running() const { return state() == RunState::Running; }
  float progress() const;  // 0..1 over all jobs
  int jobs_done() const { return done_.load(); }
  int jobs_total() const { return total_; }
  std::string error() const;  // when Failed
  double seconds() const;     // the last run's (so far, while running)

 private:
  void work(std::vector<Job> jobs, const std::function<void()>& on_end);

  std::thread thread_;
  RunControl control_;
  std::atomic<RunState> state_{RunState::Idle};
  std::atomic<int> done_{0};
  int total_ = 0;
  mutable std::mutex mutex_;  // guards error_ and the times
  std::string error_;
  double started_ = 0, finished_ = 0;
};

}  // namespace cv
