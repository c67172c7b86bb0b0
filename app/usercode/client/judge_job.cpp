#include "usercode/client/judge_job.h"

#include "usercode/client/race_check.h"
#include "usercode/client/runner_client.h"

namespace cv::usercode {

JudgeJob::~JudgeJob() {
  cancel_ = true;
  worker_.join();
}

void JudgeJob::cancel() {
  cancel_ = true;
  pending_.reset();
  std::lock_guard<std::mutex> lock(mutex_);
  result_.reset();
}

void JudgeJob::start(const TemplateSpec& t, std::shared_ptr<RunnerClient> runner, const std::string& module,
                     double time_limit_s, std::optional<Races> races) {
  cancel();
  pending_ = Pending{&t, std::move(runner), module, time_limit_s, std::move(races)};  // the registry's spec lives on
  poll();
}

void JudgeJob::poll() {
  if (!pending_ || worker_.running()) return;
  Pending p = std::move(*pending_);
  pending_.reset();
  launch(std::move(p));
}

void JudgeJob::launch(Pending p) {
  worker_.join();
  cancel_ = false;
  done_ = 0;
  racing_ = false;
  total_ = static_cast<int>(verdict_cases(*p.spec).size());
  worker_.start({[this, p](RunControl&) {
    JudgeOptions o;
    o.module = p.module;
    o.time_limit_s = p.time_limit_s;
    o.cancelled = [this] { return cancel_.load(); };
    o.progress = [this](const CaseOutcome&) { ++done_; };
    Verdict v = judge(*p.spec, *p.runner, fresh_seed(), o);
    if (p.races && v.correct && !cancel_ && can_race(*p.spec)) {
      racing_ = true;
      add_race_case(v, check_races(*p.spec, p.races->source, p.races->paths, v.seed, p.time_limit_s));
      racing_ = false;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (!v.cancelled && !cancel_) result_ = std::move(v);
  }});
}

bool JudgeJob::busy() const { return worker_.running() || pending_.has_value(); }

std::string JudgeJob::progress() const {
  if (!worker_.running()) return pending_ ? "judging: starting" : "";
  if (racing_) return "right on the GPU; checking for races on the CPU emulator";
  return "judging: " + std::to_string(done_.load()) + " of " + std::to_string(total_) + " cases";
}

std::optional<Verdict> JudgeJob::take() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::optional<Verdict> v = std::move(result_);
  result_.reset();
  return v;
}

}  // namespace cv::usercode
