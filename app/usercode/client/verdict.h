#pragma once
// The verdict on a student's kernel: right or wrong from the template's test
// set (TemplateSpec::cases), not from one run. Each case (the demo's default,
// sizes that are multiples of no block, edge values, states that reach every
// branch of a scene's step) runs in the runner on inputs drawn from a fresh
// seed and is checked by the template's reference; the verdict names the first
// case that failed, the element, what was expected and what came back.
//
// One entry point for every place a kernel is judged: bench kernel (and so the
// labs' "run your kernel" and a class challenge's judge), and the kernel tab.
#include <cstdint>
#include <functional>
#include <future>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "usercode/compile/compile.h"
#include "usercode/client/kernel_fault.h"
#include "usercode/templates/template_spec.h"

namespace cv::usercode {

class RunnerClient;

struct CaseOutcome {
  enum class Status { Passed, Failed, Fault, NotRun };
  std::string name;  // the case's words ("n = 1")
  long long n = 0;
  BlockShape block;
  int steps = 1;
  Status status = Status::NotRun;
  std::optional<Mismatch> mismatch;  // Failed: the first element that differs
  std::optional<KernelFault> fault;  // Fault: what ended the launch
  std::string error;                 // a case that could not be launched (its block refused, ...)
  double ms = 0;                     // the case's wall time (launch + reference)
};
const char* to_string(CaseOutcome::Status s);  // "passed", "failed", "fault", "not run"

struct Verdict {
  bool judged = false;   // false: the template has no check (nothing to say)
  bool correct = false;  // every case passed
  uint64_t seed = 0;     // the inputs' seed: `bench kernel --seed` reproduces them
  std::vector<CaseOutcome> cases;
  CheckResult first;     // the default case's check (its result and reference fields)
  bool cancelled = false;
  double ms = 0;         // the whole verdict's wall time
  // The first case that failed or faulted; nullptr when none did.
  const CaseOutcome* failed() const;
  // One line: "correct on all 9 cases (seed 42)", "wrong for n = 997 (prime):
  // out[996].y is 1.5, expected 1.25 (within 3e-09)", a fault's name.
  std::string summary() const;
  // bench kernel's fields: cases (each name and status), failed_case,
  // failed_element, expected, got, seed.
  void add_fields(nlohmann::ordered_json& line) const;
};

// A case made ready before its kernel is: its workload (inputs drawn) and its
// check with the reference computed (TemplateSpec::prepare), or why it could not be.
struct PreparedCase {
  Workload workload;
  Check check;
  std::string error;
};
using PreparedVerdict = std::shared_future<std::vector<PreparedCase>>;

struct JudgeOptions {
  std::string module = "editor";    // the loaded kernel in the runner
  long long n = 0;                  // the default case's size (0: the template's, the emulator's on the CPU)
  std::optional<BlockShape> block;  // the default case's block (unset: the template's)
  double time_limit_s = 2.0;        // per launch, as the app's
  // The CPU backend: a launch still finishing blocks past the limit may go on
  // this long (RunnerClient::launch's ceiling; 0: none). The verdict's
  // race-exposing schedule runs the emulator's fibers, slower than its fast path.
  double slow_ceiling_s = 0;
  // Polled between cases: true stops the verdict (cancelled, not judged correct).
  std::function<bool()> cancelled;
  // Called after each case (the kernel tab's progress).
  std::function<void(const CaseOutcome&)> progress;
  // The default case already ran (bench kernel's first launch is it:
  // default_workload()): what it read back, checked here without a launch.
  std::optional<ReadBack> default_read_back;
  // The cases made ready (prepare_verdict with the same seed and options),
  // typically while the kernel compiled; unset: each case is made as it runs.
  PreparedVerdict prepared;
};

// Makes every case of the verdict that judge(t, runner, seed, o) runs on
// `backend` ready on a thread of its own (workloads and references depend on
// the seed alone): a caller starts it with the compile and hands it to judge()
// in o.prepared, so the references cost no time after the kernel runs. `t`
// must outlive the future (the registry's templates live as long as the app);
// dropping the last handle of an unfinished one waits for it.
PreparedVerdict prepare_verdict(const TemplateSpec& t, Backend backend, uint64_t seed, const JudgeOptions& o);

// A seed nobody can predict (std::random_device), never 0.
uint64_t fresh_seed();

// Judges the kernel loaded in `runner` as `o.module` on the template's test set
// with inputs from `seed`. Runner-kept state lives under names of its own, so
// a scene's state in the same runner is untouched. A case's fault ends the
// verdict there (the runner is restarted by the next request).
Verdict judge(const TemplateSpec& t, RunnerClient& runner, uint64_t seed, const JudgeOptions& o = {});

// The same for a compiled kernel: loads it into `runner` as `o.module` first
// (a load failure is the verdict's error: judged false, a case "load").
Verdict judge(const TemplateSpec& t, const CompileResult& compiled, RunnerClient& runner, uint64_t seed,
              const JudgeOptions& o = {});

// The cases a template's verdict runs, in order: its own, or the default case alone.
std::vector<VerdictCase> verdict_cases(const TemplateSpec& t);

// The workload of one case: the size and block, the seed, a reset, the case's
// inputs set up, read back at the last step.
Workload case_workload(const VerdictCase& c, long long default_n, const BlockShape& default_block, uint64_t seed);
// The default case's workload as judge() makes it for `seed` and `o` on
// `backend`, so a caller can launch it first (edit to running) and hand its
// read-back to judge() in o.default_read_back.
Workload default_workload(const TemplateSpec& t, Backend backend, uint64_t seed, const JudgeOptions& o);
// A verdict's launch of case `index`'s workload `w`. On the CPU backend the
// cases run under both of the emulator's schedules (the GPU ignores them):
// the default case (0) on its fast path (full speed at the demo's size); the
// odd ones as fibers switched at barriers (a thread runs ahead to its next
// barrier: a missing barrier's overwrite shows); the even ones under the
// schedule that switches threads at stores (a lost update shows).
LaunchRequest verdict_launch(const TemplateSpec& t, const Workload& w, const std::string& module, size_t index);

}  // namespace cv::usercode
