// The verdict: every case of a template's test set through the runner, each
// checked by the template's reference (usercode/client/verdict.h).
#include "usercode/client/verdict.h"

#include <algorithm>
#include <chrono>
#include <future>
#include <random>
#include <stdexcept>

#include "common/splitmix.h"
#include "usercode/client/runner_client.h"

namespace cv::usercode {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// The verdict's runner-kept spans, apart from a scene's in the same runner.
constexpr const char* kStateScope = "verdict:";

// Each case draws from its own seed, all of them from the verdict's.
uint64_t case_seed(uint64_t seed, size_t index) {
  return splitmix64(seed + kSplitmixGamma * index) | 1;  // never 0 (a seed of 0 reads as "unset" in some generators)
}

// The default case's size and block: the caller's, else the template's (the
// emulator's smaller default for a whole kernel on the CPU backend).
long long default_size(const TemplateSpec& t, Backend backend, const JudgeOptions& o) {
  return o.n > 0 ? o.n : default_n_on(t, backend);
}

// A case made ready: its workload and its check (prepared where the case or
// the template can: the reference computed now, not after the launch).
PreparedCase make_case(const TemplateSpec& t, const VerdictCase& c, size_t index, Backend backend, uint64_t seed,
                       long long default_n, const BlockShape& default_block) {
  PreparedCase p;
  try {
    p.workload = case_workload(c, default_n, default_block, case_seed(seed, index));
    // The case's own check before the template's; each prepared where it can be.
    if (c.prepare)
      p.check = c.prepare(p.workload, backend);
    else if (c.check)
      p.check = c.check;
    else if (t.prepare)
      p.check = t.prepare(p.workload, backend);
    else
      p.check = t.check;
  } catch (const std::exception& e) {
    p.error = e.what();
  }
  return p;
}

// One case: launched (its steps in one request), read back, checked.
CaseOutcome run_case(const TemplateSpec& t, const VerdictCase& c, size_t index, RunnerClient& runner,
                     uint64_t seed, const JudgeOptions& o, CheckResult& check) {
  const auto t0 = Clock::now();
  CaseOutcome out;
  out.name = c.name;
  out.steps = std::max(1, c.steps);
  // Made ready while the kernel compiled (o.prepared), else now.
  PreparedCase own;
  const PreparedCase* made = &own;
  if (o.prepared.valid() && index < o.prepared.get().size())
    made = &o.prepared.get()[index];
  else
    own = make_case(t, c, index, runner.backend(), seed, default_size(t, runner.backend(), o),
                    o.block.value_or(t.default_block));
  const Workload& w = made->workload;
  LaunchRequest req;
  try {
    if (!made->error.empty()) throw std::runtime_error(made->error);
    req = verdict_launch(t, w, o.module, index);
  } catch (const std::exception& e) {
    out.status = CaseOutcome::Status::Fault;
    out.error = e.what();
    return out;
  }
  out.n = w.n;
  out.block = w.block;
  // Case 0 may be the caller's launch of this very workload: its read-back, not copied (64 MB for reverse).
  const bool given = index == 0 && o.default_read_back;
  LaunchOutcome l;
  if (given)
    l.ok = true;
  else
    l = runner.launch(req, o.time_limit_s, o.slow_ceiling_s);
  if (!l.ok) {
    out.status = CaseOutcome::Status::Fault;
    if (l.fault) out.fault = *l.fault;
    else out.error = "the launch did not run";
    out.ms = ms_since(t0);
    return out;
  }
  const ReadBack& rb = given ? *o.default_read_back : l.read_back;
  check = made->check(w, rb, runner.backend());
  out.status = check.correct ? CaseOutcome::Status::Passed : CaseOutcome::Status::Failed;
  if (!check.correct)
    out.mismatch = check.mismatch.value_or(Mismatch{"the result", "the reference", "something else", ""});
  out.ms = ms_since(t0);
  return out;
}

}  // namespace

const char* to_string(CaseOutcome::Status s) {
  switch (s) {
    case CaseOutcome::Status::Passed: return "passed";
    case CaseOutcome::Status::Failed: return "failed";
    case CaseOutcome::Status::Fault: return "fault";
    case CaseOutcome::Status::NotRun: return "not run";
  }
  return "?";
}

uint64_t fresh_seed() {
  std::random_device rd;
  const uint64_t s = (static_cast<uint64_t>(rd()) << 32) ^ rd();
  return s ? s : 1;
}

std::vector<VerdictCase> verdict_cases(const TemplateSpec& t) {
  if (!t.cases.empty()) return t.cases;
  VerdictCase d;
  d.name = "the demo's default";
  return {d};
}

Workload case_workload(const VerdictCase& c, long long default_n, const BlockShape& default_block, uint64_t seed) {
  Workload w;
  w.n = c.n > 0 ? c.n : default_n;
  w.block = c.block.value_or(default_block);
  w.seed = seed;
  w.reps = std::max(1, c.steps);
  w.reset = true;
  w.read_back = true;
  w.read_state = true;
  w.state_scope = kStateScope;
  if (c.setup) c.setup(w);
  return w;
}

LaunchRequest verdict_launch(const TemplateSpec& t, const Workload& w, const std::string& module, size_t index) {
  LaunchRequest r = make_launch(t, w, module);
  // docs/emulator.md "Races on the CPU": both kinds of race show in some case.
  r.schedule = index == 0 ? Schedule::Fast : index % 2 ? Schedule::Fibers : Schedule::Verdict;
  return r;
}

Workload default_workload(const TemplateSpec& t, Backend backend, uint64_t seed, const JudgeOptions& o) {
  return case_workload(verdict_cases(t).front(), default_size(t, backend, o), o.block.value_or(t.default_block),
                       case_seed(seed, 0));
}

PreparedVerdict prepare_verdict(const TemplateSpec& t, Backend backend, uint64_t seed, const JudgeOptions& o) {
  const long long n = default_size(t, backend, o);
  const BlockShape block = o.block.value_or(t.default_block);
  return std::async(std::launch::async, [&t, backend, seed, n, block] {
    const std::vector<VerdictCase> cases = verdict_cases(t);
    std::vector<PreparedCase> made;
    made.reserve(cases.size());
    for (size_t k = 0; k < cases.size(); ++k) made.push_back(make_case(t, cases[k], k, backend, seed, n, block));
    return made;
  }).share();
}

Verdict judge(const TemplateSpec& t, RunnerClient& runner, uint64_t seed, const JudgeOptions& o) {
  const auto t0 = Clock::now();
  Verdict v;
  v.seed = seed;
  if (!t.check) return v;
  v.judged = true;
  const std::vector<VerdictCase> cases = verdict_cases(t);
  bool stop = false;
  for (size_t k = 0; k < cases.size(); ++k) {
    if (!stop && o.cancelled && o.cancelled()) v.cancelled = stop = true;
    if (stop) {
      CaseOutcome skipped;
      skipped.name = cases[k].name;
      v.cases.push_back(skipped);
      continue;
    }
    CheckResult check;
    v.cases.push_back(run_case(t, cases[k], k, runner, seed, o, check));
    if (k == 0) v.first = check;
    // A fault ended the runner (or the launch could not be made): the rest would only repeat it.
    if (v.cases.back().status == CaseOutcome::Status::Fault) stop = true;
    if (o.progress) o.progress(v.cases.back());
  }
  v.correct = !v.cancelled && std::all_of(v.cases.begin(), v.cases.end(), [](const CaseOutcome& c) {
    return c.status == CaseOutcome::Status::Passed;
  });
  v.ms = ms_since(t0);
  return v;
}

Verdict judge(const TemplateSpec& t, const CompileResult& compiled, RunnerClient& runner, uint64_t seed,
              const JudgeOptions& o) {
  const LoadOutcome lo = runner.load(compiled, o.time_limit_s, o.module);
  if (!lo.ok) {
    Verdict v;
    v.seed = seed;
    v.judged = true;
    CaseOutcome c;
    c.name = "load";
    c.status = CaseOutcome::Status::Fault;
    c.error = lo.error;
    v.cases.push_back(c);
    return v;
  }
  return judge(t, runner, seed, o);
}

}  // namespace cv::usercode
