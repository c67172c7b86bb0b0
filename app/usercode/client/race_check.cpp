#include "usercode/client/race_check.h"

#include <algorithm>
#include <chrono>

#include "usercode/client/runner_client.h"
#include "usercode/compile/compile.h"

namespace cv::usercode {
namespace {

// The demo's case on the emulator at most this large: the races show in the
// small cases, and a class's kernel is judged in about a second.
constexpr long long kRaceCheckN = 4096;
constexpr double kRaceCeilingS = 30;  // a CPU launch still finishing blocks may go on this long

}  // namespace

bool can_race(const TemplateSpec& t) { return t.cpu_form == CpuForm::Emulated && static_cast<bool>(t.check); }

RaceCheck check_races(const TemplateSpec& t, const std::string& source, const PathConfig& paths, uint64_t seed,
                      double time_limit_s) {
  const auto t0 = std::chrono::steady_clock::now();
  RaceCheck r;
  auto done = [&] {
    r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return r;
  };
  if (!can_race(t)) {
    r.not_run = "a per-item function has no threads to race";
    return done();
  }
  CompileRequest req;
  req.source = source;
  req.template_name = t.name;
  req.build = BuildKind::Cpu;
  req.paths = paths;
  const CompileResult c = compile(req);
  if (!c.ok) {
    r.not_run = "it does not compile for the CPU emulator: " + (c.first_error().empty() ? c.error : c.first_error());
    return done();
  }
  std::string why;
  const std::string runner = find_runner(paths.runner, &why);
  if (runner.empty()) {
    r.not_run = why;
    return done();
  }
  try {
    RunnerClient cpu(runner, Backend::Cpu, -1, /*quiet=*/true);
    JudgeOptions o;
    o.module = "races";
    o.n = std::min({t.default_n, t.emulated_default_n, kRaceCheckN});
    o.time_limit_s = time_limit_s;
    o.slow_ceiling_s = kRaceCeilingS;
    const Verdict v = judge(t, c, cpu, seed, o);
    CaseOutcome out;
    out.name = kRaceCase;
    out.status = CaseOutcome::Status::Passed;
    if (const CaseOutcome* f = v.failed()) {
      // Too slow for the emulator says nothing about races (the device already ran it).
      if (f->fault && (f->fault->error_name == "time-out" || f->fault->error_name == "slow")) {
        r.not_run = "too slow on the CPU emulator to check for races (" + f->name + ")";
        return done();
      }
      out = *f;
      out.name = std::string(kRaceCase) + ": " + f->name;
    }
    r.outcome = out;
  } catch (const std::exception& e) {
    r.not_run = e.what();
  }
  return done();
}

void add_race_case(Verdict& v, const RaceCheck& r) {
  if (!r.outcome || !v.judged) return;
  v.cases.push_back(*r.outcome);
  v.ms += r.ms;
  v.correct = v.correct && r.outcome->status == CaseOutcome::Status::Passed;
}

}  // namespace cv::usercode
