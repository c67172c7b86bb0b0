#pragma once
// The kernel tab's verdict off the UI thread: usercode::judge() on a worker,
// in the app's runner (the scene's state untouched: the verdict keeps its
// own), started once the kernel already runs, so it adds nothing to edit to
// running; the tab shows its progress and then the first failing case.
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "config/config.h"
#include "usercode/client/verdict.h"
#include "worker/worker.h"

namespace cv::usercode {

class JudgeJob {
 public:
  JudgeJob() = default;
  ~JudgeJob();
  JudgeJob(const JudgeJob&) = delete;
  JudgeJob& operator=(const JudgeJob&) = delete;

  // On a GPU, what the race check (race_check.h) needs: the source and the
  // paths to the host compiler and the runner.
  struct Races {
    std::string source;
    PathConfig paths;
  };
  // Judges `t`'s kernel loaded as `module` in `runner` (held until done) on a
  // new seed, then, given `races` and a right answer, checks the source for
  // races on the CPU emulator; a verdict still running is cancelled (between
  // its cases) and this one starts at a later poll(), never blocking the caller.
  void start(const TemplateSpec& t, std::shared_ptr<RunnerClient> runner, const std::string& module,
             double time_limit_s, std::optional<Races> races = std::nullopt);
  // Forgets any verdict, running (cancelled) or pending.
  void cancel();
  // UI thread, every frame: starts a pending verdict once the last one ended.
  void poll();
  bool busy() const;
  // "judging: 3 of 10 cases" while it runs, "" otherwise.
  std::string progress() const;
  // The finished verdict, once. UI thread.
  std::optional<Verdict> take();

 private:
  struct Pending {
    const TemplateSpec* spec;
    std::shared_ptr<RunnerClient> runner;
    std::string module;
    double time_limit_s;
    std::optional<Races> races;
  };
  void launch(Pending p);
  std::optional<Pending> pending_;
  Worker worker_;
  std::atomic<bool> cancel_{false};
  std::atomic<int> done_{0};
  std::atomic<bool> racing_{false};  // the race check runs
  int total_ = 0;
  mutable std::mutex mutex_;
  std::optional<Verdict> result_;
};

}  // namespace cv::usercode
