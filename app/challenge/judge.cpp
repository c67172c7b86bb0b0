#include "challenge/judge.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "bench/bench.h"
#include "bench/comparison.h"
#include "challenge/backend_tells.h"
#include "challenge/judge_audit.h"
#include "challenge/judge_words.h"
#include "usercode/emu/explain_json.h"
#include "usercode/client/explain_process.h"
#include "usercode/client/explain_launch.h"
#include "usercode/client/runner_client.h"
#include "usercode/templates/template_registry.h"

#ifndef CUDAVIZ_EXPLAIN_PATH
#define CUDAVIZ_EXPLAIN_PATH ""
#endif

namespace cv::challenge {

using Clock = std::chrono::steady_clock;
constexpr double kChallengeExplainLimitS = 60;

const char* to_string(Verdict::Outcome o) {
  switch (o) {
    case Verdict::Outcome::CompileError:
      return "compile error";
    case Verdict::Outcome::Wrong:
      return "wrong";
    case Verdict::Outcome::Fault:
      return "fault";
    case Verdict::Outcome::Correct:
      return "correct";
    case Verdict::Outcome::Failed:
      break;
  }
  return "not judged";
}

namespace {

const usercode::TemplateSpec& spec_of(const JudgeRequest& r) {
  const usercode::TemplateSpec* t = usercode::find_template(r.template_name);
  if (!t) throw std::invalid_argument("unknown template '" + r.template_name + "'");
  return *t;
}

// The request `bench kernel` would make for this kernel on this backend, so
// that the compile done here is the one it runs.
usercode::CompileRequest compile_request(const JudgeSettings& s, const JudgeRequest& r,
                                         const usercode::TemplateSpec& t) {
  usercode::CompileRequest req;
  req.source = r.source;
  req.template_name = t.name;
  req.build = s.backend == Backend::Cpu && usercode::runs_on_cpu(t) ? usercode::BuildKind::Cpu
                                                                      : usercode::BuildKind::Gpu;
  req.file_name = "kernel.cu";
  req.paths = s.paths;
  req.guard = req.build == usercode::BuildKind::Gpu;  // bench kernel's default: the guard on
  // Code from the network: NVRTC in a confined child (cudaviz-nvrtc), as the
  // host compiler always is; bench kernel runs the module in the runner's cell.
  req.isolate = true;
  return req;
}

long long size_of(const JudgeSettings& s, const usercode::TemplateSpec& t) {
  if (s.n) return *s.n;
  // The emulator runs each GPU thread on a CPU core's time: a class's worth of
  // kernels at the emulator's bench size would take minutes.
  constexpr long long kEmulatedChallengeN = 1 << 16;
  const long long n = usercode::default_n_on(t, s.backend);
  return usercode::emulated_on(t, s.backend) ? std::min(n, kEmulatedChallengeN) : n;
}

// The audited launches' verdict; the time never under their median (a kernel
// that works only when it is checked gains nothing from the unchecked ones).
void apply_audit(const Audit& a, Verdict& v) {
  if (!a.correct) {
    v.outcome = a.fault ? Verdict::Outcome::Fault : Verdict::Outcome::Wrong;
    v.message = a.message;
    v.message_line = a.message_line;
    return;
  }
  if (a.ms.empty()) return;
  const bench::Spread s = bench::spread_of(a.ms);
  v.ms_median = std::max(v.ms_median, s.median_ms);
  v.ms_min = std::max(v.ms_min, s.min_ms);
  v.ms_max = std::max(v.ms_max, s.max_ms);
  v.audited_launches = s.reps;
}

}  // namespace

std::shared_ptr<usercode::RunnerClient> judge_runner(const JudgeSettings& s, const std::string& path, int device) {
  return std::make_shared<usercode::RunnerClient>(path, s.backend, s.backend == Backend::Cuda ? device : -1,
                                                  /*quiet=*/true);
}

Compiled compile_stage(const JudgeSettings& s, const JudgeRequest& r) {
  Compiled c;
  if (std::vector<usercode::Diagnostic> tells = backend_tells(r.source); !tells.empty()) {
    auto refused = std::make_shared<usercode::CompileResult>();
    refused->template_name = r.template_name;
    refused->error = tells.front().message;
    refused->diagnostics = std::move(tells);
    c.result = std::move(refused);
    return c;
  }
  const auto t0 = Clock::now();
  auto result = std::make_shared<usercode::CompileResult>(usercode::compile(compile_request(s, r, spec_of(r))));
  c.compile_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  c.result = std::move(result);
  return c;
}

bool compile_failed(const Compiled& c, Verdict& v) {
  v.marks.clear();
  for (const usercode::Diagnostic& d : c.result->diagnostics)
    v.marks.push_back({d.line, d.column, usercode::to_string(d.severity), words_for_student(d.message)});
  if (c.result->ok) return false;
  v.outcome = Verdict::Outcome::CompileError;
  v.message = c.result->error.empty() ? "it does not compile: see the marked lines" : words_for_student(c.result->error);
  v.message_line = c.result->first_error_line();
  return true;
}

void run_stage(const JudgeSettings& s, const JudgeRequest& r, const Compiled& c,
               const std::shared_ptr<usercode::RunnerClient>& runner, RunControl* control, Verdict& v) {
  const usercode::TemplateSpec& t = spec_of(r);
  BenchOptions o;
  o.target = "kernel";
  o.variant = "yours";
  o.template_name = t.name;
  o.source = "kernel.cu";
  o.source_text = r.source;
  o.n = size_of(s, t);
  o.reps = s.reps ? s.reps : (s.backend == Backend::Cuda ? 30 : 3);
  o.paths = s.paths;
  o.runner = runner;
  o.compiled = c.result;
  o.judge_only = true;
  o.control = control;
  o.seed = r.seed;  // the verdict's inputs (`bench kernel --seed`)
  v.backend = s.backend == Backend::Cuda ? "cuda" : "cpu";
  v.n = *o.n;
  const bench::Target* k = bench::find_target("kernel");
  try {
    if (!k) throw std::runtime_error("this build has no kernel judge (bench kernel)");
    const std::vector<bench::Measurement> ms = k->run(o, s.backend);
    if (ms.empty()) throw std::runtime_error("the judge measured nothing");
    const bench::Measurement& m = ms.front();
    v.ms_min = m.stats.min_ms;
    v.ms_median = m.stats.median_ms;
    v.ms_max = m.stats.max_ms;
    v.reps = m.stats.reps;
    const auto it = m.fields.find("correct");
    const bool checked = it != m.fields.end() && it->is_boolean();
    const bool correct = !checked || it->get<bool>();
    v.outcome = correct ? Verdict::Outcome::Correct : Verdict::Outcome::Wrong;
    if (!correct) v.message = wrong_words(t, m.fields);
    if (!checked) v.message = "timed only: this template has no reference to check against";
    if (checked && correct && runner && runner->backend() == s.backend)
      apply_audit(audit(t, *runner, "lab", v.n, r.seed, s.backend), v);
  } catch (const bench::TargetFailure& f) {
    v.outcome = f.exit_code == 2 ? Verdict::Outcome::CompileError : Verdict::Outcome::Fault;
    v.message = words_for_student(f.what());
    v.message_line = f.line.value("error_line", 0);
  } catch (const Cancelled&) {
    v.outcome = Verdict::Outcome::Failed;
    v.message = "the challenge stopped before this kernel ran";
  } catch (const std::exception& e) {
    v.outcome = Verdict::Outcome::Failed;
    v.message = e.what();
  }
}

void explain_stage(const JudgeSettings& s, const JudgeRequest& r, const std::string& gpu_ptx, Verdict& v) {
  if (!s.explain) return;
  try {
    const usercode::TemplateSpec& t = spec_of(r);
    usercode::ExplainOptions eo;
    eo.paths = s.paths;
    eo.isolate = true;  // a submission's code: NVRTC in its confined child
    eo.ptx = gpu_ptx;  // the CUDA judge's own compile: no second one
    emu::ExplainRequest q = usercode::make_explain_request(t, r.source, eo);
    // In the background of a verdict already given, on a machine busy judging
    // a class: more time than the kernel tab's explain gets.
    q.time_limit_s = std::max(q.time_limit_s, kChallengeExplainLimitS);
    const emu::ExplainOutcome o = emu::run_explain_process(emu::find_explain_helper(CUDAVIZ_EXPLAIN_PATH), q);
    if (!o.ran) {
      v.explain_note = "not checked for races: explain did not run (" + words_for_student(o.error) + ")";
      return;
    }
    if (!o.reply.value("ok", false) && !o.reply.contains("explain")) {
      v.explain_note = "not checked for races: explain could not run this kernel (" +
                       words_for_student(o.reply.value("error", std::string("it failed"))) + ")";
      return;
    }
    if (o.reply.contains("explain")) {
      const emu::Explain x = emu::explain_from_json(o.reply["explain"]);
      v.findings = explain_words(x, o.reply.value("n", 0ll));
      v.racy = x.racy_elements > 0;
    }
  } catch (const std::exception& e) {
    v.explain_note = std::string("explain could not run: ") + e.what();
  }
}

std::vector<std::pair<std::string, double>> builtin_times(const JudgeSettings& s,
                                                          const std::string& template_name,
                                                          RunControl* control) {
  std::vector<std::pair<std::string, double>> out;
  const usercode::TemplateSpec* t = usercode::find_template(template_name);
  const bench::Target* target = t ? bench::find_target(t->feeds_name) : nullptr;
  if (!target) return out;
  BenchOptions o;
  o.target = target->name;
  o.n = size_of(s, *t);
  o.block = t->default_block;
  o.reps = s.reps ? s.reps : (s.backend == Backend::Cuda ? 30 : 3);
  o.paths = s.paths;
  o.control = control;
  // The variants the template names, else every one that runs here.
  std::vector<std::string> variants = t->vs_variants;
  if (variants.empty() || s.backend == Backend::Cpu) variants = {"all"};
  for (const std::string& name : variants) {
    o.variant = name;
    try {
      for (const bench::Measurement& m : target->run(o, s.backend))
        if (m.backend == s.backend) out.emplace_back(m.variant, m.stats.median_ms);
    } catch (const Cancelled&) {
      throw;
    } catch (const std::exception&) {
      // a variant that does not run here or at this size has no reference line
    }
  }
  return out;
}

}  // namespace cv::challenge
