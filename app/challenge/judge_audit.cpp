#include "challenge/judge_audit.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "challenge/judge_words.h"
#include "common/splitmix.h"
#include "usercode/client/runner_client.h"
#include "usercode/client/verdict.h"

namespace cv::challenge {

namespace {

constexpr double kLaunchLimitS = 2.0;  // as bench kernel's launches
constexpr int kGpuLaunches = 5;        // each from a reset on fresh data: a median of five
constexpr int kCpuLaunches = 2;        // the emulator takes a core's time per launch

std::string fault_words(const usercode::KernelFault& f) { return words_for_student(f.describe()); }

// One launch of `w` checked: false (with the words in `a`) when it faulted or
// its answer is wrong.
bool audited_launch(const usercode::TemplateSpec& t, usercode::RunnerClient& runner, const std::string& module,
                    const usercode::Workload& w, Backend backend, const std::string& which, Audit& a) {
  const usercode::LaunchOutcome o = runner.launch(usercode::make_launch(t, w, module), kLaunchLimitS);
  if (!o.ok) {
    a.correct = false;
    a.fault = true;
    a.message = o.fault ? fault_words(*o.fault) : "the kernel did not run";
    if (o.fault) a.message_line = o.fault->error_line();
    return false;
  }
  if (!o.kernel_ms.empty()) a.ms.push_back(o.kernel_ms.front());
  const usercode::CheckResult r = t.check(w, o.read_back, backend);
  if (r.correct) return true;
  a.correct = false;
  a.message = "right on the first data, wrong on fresh data (" + which + ", after the timed runs): " +
              wrong_words(t, r.fields) + ". Every launch must compute its answer from that launch's data.";
  return false;
}

}  // namespace

uint64_t audit_seed(uint64_t seed, int k) {
  uint64_t s = splitmix64(seed ^ splitmix64(static_cast<uint64_t>(k) + 1));
  if ((s & 0xffffffffull) == 0) s |= 1;  // never the 32-bit generators' zero
  return s;
}

// A scene's template: its cases replay steps from a start (verdict.h).
bool replays_steps(const usercode::TemplateSpec& t) {
  return std::any_of(t.cases.begin(), t.cases.end(), [](const usercode::VerdictCase& c) { return c.steps > 1; });
}

int audit_launches(const usercode::TemplateSpec& t, Backend backend) {
  if (replays_steps(t)) return static_cast<int>(usercode::verdict_cases(t).size());
  return backend == Backend::Cuda ? kGpuLaunches : kCpuLaunches;
}

Audit audit(const usercode::TemplateSpec& t, usercode::RunnerClient& runner, const std::string& module,
            long long n, uint64_t seed, Backend backend) {
  Audit a;
  if (!t.check) return a;
  const int count = audit_launches(t, backend);
  if (replays_steps(t)) {
    // A scene: its whole test set again on fresh data, after the timed runs
    // (each case runs its steps from its own start and is checked at the end).
    usercode::JudgeOptions o;
    o.module = module;
    o.n = n;
    o.time_limit_s = kLaunchLimitS;
    const usercode::Verdict v = usercode::judge(t, runner, audit_seed(seed, 0), o);
    if (const usercode::CaseOutcome* f = v.failed()) {
      a.correct = false;
      a.fault = f->fault.has_value();
      a.message = f->fault ? fault_words(*f->fault)
                           : "right on the first data, wrong on fresh data (after the timed runs): " +
                                 words_for_student(v.summary()) + ". Every launch must compute its answer from that launch's data.";
      if (f->fault) a.message_line = f->fault->error_line();
    }
    return a;
  }
  usercode::Workload w = usercode::first_launch(t, n, t.default_block);
  for (int k = 0; k < count; ++k) {
    w.seed = audit_seed(seed, k);
    w.reset = true;
    w.read_back = true;
    const std::string which = "checked launch " + std::to_string(k + 1) + " of " + std::to_string(count);
    if (!audited_launch(t, runner, module, w, backend, which, a)) return a;
  }
  return a;
}

}  // namespace cv::challenge
