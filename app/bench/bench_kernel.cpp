// `cudaviz bench kernel --source FILE.cu [--template NAME]`: a student's
// kernel (docs/kernels.md) compiled with NVRTC (or the host compiler on the
// CPU path), run in the runner process on the template's workload, checked
// against its reference and timed beside the built-in variants of its scene
// or lab measured in the same run. Nothing here knows a template by name: the
// registration (usercode/templates/template_spec.h) holds the rules. One JSON line; a
// compile error prints FILE:LINE: error: lines on stderr and exits 2, a fault
// exits 1, both still print the line.
// The labs window's "run your kernel" (bench/kernel_action.h) runs this same
// target on the kernel tab's text (BenchOptions::source_text), checked.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>

#include "bench/bench.h"
#include "bench/comparison.h"
#include "usercode/client/explain_launch.h"
#include "usercode/client/explain_process.h"
#include "usercode/client/race_check.h"
#include "usercode/client/runner_client.h"
#include "usercode/client/verdict.h"
#include "usercode/compile/compile.h"
#include "usercode/compile/temp_dir.h"
#include "usercode/templates/template_registry.h"

#ifndef CUDAVIZ_EXPLAIN_PATH
#define CUDAVIZ_EXPLAIN_PATH ""
#endif

namespace cv::bench {
namespace {

using namespace usercode;
using Clock = std::chrono::steady_clock;

constexpr int kEditReps = 5;          // edit-to-running measured this many times (median)
constexpr double kTimeLimitS = 2.0;   // the app's default per-launch limit
constexpr double kSlowCeilingS = 60;  // CPU: a launch still finishing blocks may go on this long

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

double median_of(std::vector<double> v) { return v.empty() ? 0 : summarize(std::move(v)).median_ms; }

std::string read_source(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("--source: cannot read '" + path + "'");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// What every line carries, success or not.
struct Run {
  const BenchOptions& opt;
  Backend backend;
  std::string path;
  const TemplateSpec* spec = nullptr;
  nlohmann::ordered_json line;
  std::unique_ptr<RunnerClient> own;  // bench's own runner (the command line)
  RunnerClient* client = nullptr;     // own, or the app's (BenchOptions::runner)
  std::string module;                 // the runner's name for this kernel
  std::vector<BuiltinTime> builtins;  // the built-ins timed beside yours (bench/comparison.h)
};

[[noreturn]] void fail(Run& r, const std::string& error, int error_line, int code,
                       const std::string& diagnostics = "") {
  r.line["error"] = error;
  r.line["error_line"] = error_line;
  throw TargetFailure(error, r.line, diagnostics, code);
}

[[noreturn]] void fail_fault(Run& r, const KernelFault& f) {
  r.line["error_name"] = f.error_name;
  fail(r, f.describe(), f.error_line(), 1);
}

std::string compiler_style(const std::string& path, const CompileResult& c) {
  std::string s;
  for (const Diagnostic& d : c.diagnostics)
    s += path + ":" + std::to_string(d.line) + (d.column ? ":" + std::to_string(d.column) : "") +
         ": " + to_string(d.severity) + ": " + d.message + "\n";
  if (!c.error.empty()) s += path + ":0: error: " + c.error + "\n";
  return s;
}

void add_compile_fields(Run& r, const CompileResult& c, const std::vector<double>& compile_ms) {
  r.line["template"] = c.template_name.empty() ? r.spec->name : c.template_name;
  r.line["source"] = r.path;
  r.line["arch"] = c.arch;
  r.line["compile_ms"] = median_of(compile_ms);
  r.line["registers"] = c.resources.known ? nlohmann::ordered_json(c.resources.registers) : nullptr;
  r.line["shared_bytes"] = c.resources.known ? nlohmann::ordered_json(c.resources.shared_bytes) : nullptr;
  r.line["local_bytes"] = c.resources.known ? nlohmann::ordered_json(c.resources.local_bytes) : nullptr;
  r.line["warnings"] = std::count_if(c.diagnostics.begin(), c.diagnostics.end(),
                                     [](const Diagnostic& d) { return d.severity == Severity::Warning; });
  // Every message with its line (0: not in the student's file) and its words.
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const Diagnostic& d : c.diagnostics)
    list.push_back({{"line", d.line}, {"column", d.column}, {"severity", to_string(d.severity)}, {"message", d.message}});
  r.line["diagnostics"] = list;
}

// --explain (any backend): the kernel once through the emulator at explain's
// size (usercode/client/explain_launch.h: the same launch rules, at most 65,536
// threads), in cudaviz-explain's process; races, sectors and divergence join the line.
// `c`: this file's compile, whose PTX (the GPU's) tells explain how nvcc unrolled its loops.
void add_explain(Run& r, const std::string& src, const CompileResult& c, long long n, const BlockShape& block) {
  const auto t0 = Clock::now();
  ExplainOptions eo;
  if (c.ok) eo.ptx = c.ptx;  // "" on the CPU: explain compiles it
  eo.n = n;
  eo.block = block;
  eo.file_name = std::filesystem::path(r.path).filename().string();
  eo.paths = r.opt.paths;
  emu::ExplainOutcome o;
  try {
    o = emu::run_explain_process(emu::find_explain_helper(CUDAVIZ_EXPLAIN_PATH),
                                 make_explain_request(*r.spec, src, eo));
  } catch (const std::exception& e) {
    o.error = e.what();
  }
  r.line["explain_ms"] = ms_since(t0);
  if (!o.ran) {
    r.line["explain_error"] = o.error;
    return;
  }
  if (!o.reply.value("ok", false)) r.line["explain_error"] = o.reply.value("error", std::string("failed"));
  if (!o.reply.contains("explain")) return;
  const nlohmann::json& x = o.reply["explain"];
  r.line["explain_n"] = o.reply.value("n", 0ll);
  for (const char* k : {"race_groups", "races", "racy_elements", "sectors_per_request", "divergent_branches", "scope"})
    if (x.contains(k)) r.line[std::string(k == std::string("scope") ? "explain_scope" : k)] = x[k];
}

// The CPU backend runs whole kernels in the emulator: what its barrier and
// shuffle cost per thread (a micro-kernel, in cudaviz-explain's process).
void add_sync_costs(Run& r) {
  const emu::ExplainOutcome o = emu::run_sync_costs_process(
      emu::find_explain_helper(CUDAVIZ_EXPLAIN_PATH), r.opt.paths.cxx.empty() ? "c++" : r.opt.paths.cxx,
      r.opt.paths.tmpdir.empty() ? "/tmp" : r.opt.paths.tmpdir);
  if (!o.ran || !o.reply.value("ok", false)) return;
  for (const char* k : {"barrier_ns_per_thread", "shuffle_ns_per_thread", "fiber_barrier_ns_per_thread",
                        "fiber_shuffle_ns_per_thread"})  // the fast path's, then the fibers'
    if (o.reply.contains(k)) r.line[k] = o.reply[k];
}

// ---- the workload: the first launch (edit-to-running) and the measurements ----

LaunchOutcome launch(Run& r, const Workload& w, Schedule schedule = Schedule::Fast, const std::string* module = nullptr) {
  LaunchRequest q = make_launch(*r.spec, w, module ? *module : r.module);
  q.schedule = schedule;
  return r.client->launch(q, kTimeLimitS, kSlowCeilingS);
}

// The built-in variants of the template's scene or lab, same n, block and
// backend, measured in this run: {variant: median ms}.
std::vector<std::pair<std::string, double>> builtin_medians(Run& r, long long n, const BlockShape& b) {
  std::vector<std::pair<std::string, double>> out;
  const Target* t = find_target(r.spec->feeds_name);
  if (!t) return out;
  BenchOptions o;
  o.target = t->name;
  o.variant = "all";
  o.n = n;
  o.block = b;
  o.reps = r.opt.reps;
  o.control = r.opt.control;
  o.paths = r.opt.paths;
  // Only the variants named (each alone: no CPU twin runs for nothing), else all.
  std::vector<std::string> variants = r.spec->vs_variants;
  if (variants.empty()) variants = {"all"};
  for (const std::string& v : variants) {
    o.variant = v;
    std::vector<Measurement> ms;
    try {
      ms = t->run(o, r.backend);
    } catch (const UsageError&) {
      continue;  // a variant that does not run here (another backend, this size)
    } catch (const std::invalid_argument&) {
      continue;  // a variant that refuses this block shape has no ratio
    }
    for (const Measurement& m : ms)
      if (m.backend == r.backend) out.emplace_back(m.variant, m.stats.median_ms);
  }
  // The named peers are GPU variants; on the CPU backend the lab's own CPU
  // variants are the built-in to compare with.
  if (out.empty() && variants != std::vector<std::string>{"all"}) {
    o.variant = "all";
    try {
      for (const Measurement& m : t->run(o, r.backend))
        if (m.backend == r.backend) out.emplace_back(m.variant, m.stats.median_ms);
    } catch (const std::exception&) {
      // none runs at this size or block shape here: the line has no ratio
    }
  }
  return out;
}

int reps_of(const Run& r) { return r.opt.reps ? r.opt.reps : (r.backend == Backend::Cuda ? 200 : 20); }

// A challenge's judge shares one GPU with a whole class: its timed launches
// fit a budget (a slow kernel gets fewer reps, never fewer than kJudgeMinReps;
// their spread is reported with the median).
constexpr double kJudgeTimingMs = 20;
constexpr int kJudgeMinReps = 5;

int budgeted_reps(const std::vector<double>& warm_ms, int reps) {
  if (warm_ms.empty()) return reps;
  std::vector<double> ms = warm_ms;
  std::nth_element(ms.begin(), ms.begin() + static_cast<long>(ms.size() / 2), ms.end());
  const double each = std::max(ms[ms.size() / 2], 1e-6);
  const int fit = static_cast<int>(std::min(1e6, kJudgeTimingMs / each));
  return std::min(reps, std::max(kJudgeMinReps, fit));
}

constexpr double kWarmMs = 25;  // the least a kernel is warmed up for before it is timed

// `w` launched a few times to warm up, then `reps` times in one request:
// the kernel's times in the runner (CUDA events / host clock).
// `report_path`: the line's emulator_path / fast_path_off are this build's.
// `budgeted`: a challenge's judge (at most `reps`, within kJudgeTimingMs).
Stats kernel_times(Run& r, Workload w, int reps, Spread* spread = nullptr, bool report_path = true,
                   bool budgeted = false) {
  w.reps = std::min(reps, budgeted ? 1 : 10);  // a judge's kernel is warm already: its verdict just ran
  LaunchOutcome warm = launch(r, w);
  if (!warm.ok) fail_fault(r, *warm.fault);
  // Warm for kWarmMs at least, not only ten launches: a sub-millisecond kernel's
  // ten took about 1.5 ms on the CPU, and a run whose timed launches came right
  // after was at one core's speed in one run of six (docs/emulator.md).
  if (!budgeted && !warm.kernel_ms.empty()) {
    const double each = std::max(summarize(warm.kernel_ms).median_ms, 1e-3);
    if (const int more = static_cast<int>(std::min(kWarmMs / each, 2000.0)) - w.reps; more > 0) {
      w.reps = more;
      warm = launch(r, w);
      if (!warm.ok) fail_fault(r, *warm.fault);
    }
  }
  w.reps = budgeted ? budgeted_reps(warm.kernel_ms, reps) : reps;
  const LaunchOutcome t = launch(r, w);
  if (!t.ok) fail_fault(r, *t.fault);
  // The emulator: how it ran the timed launches (the first, a verdict, runs its own build).
  for (const char* k : {"path", "fast_path_off"})
    if (report_path && t.reply.contains(k)) r.line[std::string(k) == "path" ? "emulator_path" : k] = t.reply[k];
  if (spread) *spread = spread_of(t.kernel_ms);  // min, median, max (bench/comparison.h)
  return summarize(t.kernel_ms);
}

// Single launches timed from request to reply (median), and the runner's own
// share of each. Back to back (gap 0) the runner and the GPU are still busy
// from the last one; a window's frames come a frame apart, after both went
// idle, and each then pays for waking them.
struct Trips {
  double trip_ms = 0, runner_ms = 0;
};
constexpr double kFrameGapS = 1.0 / 60;

Trips round_trips(Run& r, const Workload& w, int count, double gap_s) {
  std::vector<double> trips, in_runner;
  for (int k = 0; k < count; ++k) {
    if (gap_s > 0) std::this_thread::sleep_for(std::chrono::duration<double>(gap_s));
    const auto t0 = Clock::now();
    const LaunchOutcome one = launch(r, w);
    if (!one.ok) fail_fault(r, *one.fault);
    trips.push_back(ms_since(t0));
    in_runner.push_back(one.reply.value("runner_ms", 0.0));
  }
  return {median_of(trips), median_of(in_runner)};
}

// The verdict's options: the default case at this n and block, the app's
// time limit, the labs window's cancel.
JudgeOptions judge_options(Run& r, long long n, const BlockShape& b) {
  JudgeOptions o;
  o.module = r.module;
  o.n = n;
  o.block = b;
  o.time_limit_s = kTimeLimitS;
  o.slow_ceiling_s = r.opt.judge_only ? 0 : kSlowCeilingS;  // a challenge keeps its 2 s a launch
  if (r.opt.control) o.cancelled = [c = r.opt.control] { return c->cancel.load(); };
  return o;
}

// `verdict`: the template's test set (usercode/client/verdict.h), its default case
// already run as edit to running's first launch.
Measurement measure(Run& r, long long n, const BlockShape& b, const Verdict& verdict) {
  Measurement m = make_measurement("yours", r.backend, n, b);
  if (verdict.failed() && verdict.failed()->fault && verdict.failed() == &verdict.cases.front()) {
    // The demo's own case faulted: the kernel cannot run on its workload (exit 1, as before).
    r.line["failed_case"] = verdict.failed()->name;
    fail_fault(r, *verdict.failed()->fault);
  }
  const CheckResult& check = verdict.first;
  // Kernel time (CUDA events / host clock in the runner), then the whole
  // round trip a frame or a lab run pays (request, launch, reply).
  const int reps = reps_of(r);
  Workload timed = first_launch(*r.spec, n, b);
  timed.reset = false;
  Spread spread;
  m.stats = kernel_times(r, timed, reps, &spread, true, r.opt.judge_only);
  m.fields["ms_max"] = spread.max_ms;  // with ms_min and ms_median: the reps' spread
  timed.reps = 1;
  // The default case's check fields and the verdict on the whole test set.
  auto add_check = [&] {
    for (auto it = check.fields.begin(); it != check.fields.end(); ++it) m.fields[it.key()] = it.value();
    m.fields["correct"] = verdict.judged ? nlohmann::ordered_json(verdict.correct) : nlohmann::ordered_json();
    if (!verdict.judged) return;
    nlohmann::ordered_json v;
    verdict.add_fields(v);
    for (auto it = v.begin(); it != v.end(); ++it) m.fields[it.key()] = it.value();
  };
  if (r.opt.judge_only) {  // a challenge's judge: the verdict and the kernel's time
    add_check();
    return m;
  }
  const Trips back_to_back = round_trips(r, timed, std::min(reps, 100), 0);
  const Trips paced = round_trips(r, timed, std::min(reps, 30), kFrameGapS);
  check_cancel(r.opt, 0.6f);
  nlohmann::ordered_json vs = nlohmann::ordered_json::object();
  double builtin_ms = 0;
  for (const auto& [variant, ms] : builtin_medians(r, n, b)) {
    vs[variant] = ms / m.stats.median_ms;
    r.builtins.push_back({variant, ms});
    if (variant == r.spec->builtin_variant) builtin_ms = ms;
    // The fair ratio on the CPU: the built-in CPU variant of the same algorithm (TemplateSpec::cpu_twin).
    if (r.backend == Backend::Cpu && variant == r.spec->cpu_twin) m.fields["vs_cpu_twin"] = ms / m.stats.median_ms;
  }
  if (r.spec->rate && !r.spec->rate_name.empty())
    m.fields[r.spec->rate_name] = r.spec->rate(n) / (m.stats.median_ms * 1e-3);
  m.fields["frame_ms_median"] = back_to_back.trip_ms;    // a launch's round trip through the runner
  m.fields["runner_ms_median"] = back_to_back.runner_ms;  // of which the runner's handling (kernel included)
  m.fields["paced_frame_ms_median"] = paced.trip_ms;      // the same, a 60 Hz frame apart
  m.fields["paced_runner_ms_median"] = paced.runner_ms;
  if (!r.spec->builtin_variant.empty()) {
    m.fields["builtin_ms_median"] = builtin_ms;  // the built-in named by the template
    m.fields["overhead_ms"] = back_to_back.trip_ms - builtin_ms;  // yours, per frame, beyond the built-in
    m.fields["paced_overhead_ms"] = paced.trip_ms - builtin_ms;
  }
  add_check();
  m.fields["vs"] = vs;
  return m;
}

// Two modules of one runner timed in turns: `rounds` requests of about
// reps / rounds launches each, a's then b's, after both warmed up. Both see the same GPU clocks and
// caches, which a comparison of kernels of a few microseconds needs; such a
// kernel also gets more launches than `reps`, about kPairedMs of each module
// (at most kPairedMaxReps). The middle means (middle_mean) of all a's and all b's.
constexpr double kPairedMs = 40;
constexpr int kPairedMaxReps = 4000;
// The mean of the middle half of `ms` (the interquartile mean): CUDA events
// time a launch to about half a microsecond, so the median of an 8-microsecond
// kernel's launches sits on one of a few steps 6% apart, while the mean of
// the middle half moves with the time itself; a preempted launch is left out.
double middle_mean(std::vector<double> ms) {
  if (ms.empty()) return 0;
  std::sort(ms.begin(), ms.end());
  const size_t lo = ms.size() / 4, hi = std::max(lo + 1, ms.size() - ms.size() / 4);
  double sum = 0;
  for (size_t k = lo; k < hi; ++k) sum += ms[k];
  return sum / static_cast<double>(hi - lo);
}
struct Paired {
  double a_ms = 0, b_ms = 0;
  int reps = 0;  // launches of each module timed
};
Paired paired_times(Run& r, Workload w, int reps, const std::string& a, const std::string& b, int rounds = 5) {
  std::vector<double> ms[2];
  const std::string* modules[2] = {&a, &b};
  w.reps = std::min(reps, 10);
  double each = 0;
  for (const std::string* m : modules) {
    const LaunchOutcome warm = launch(r, w, Schedule::Fast, m);
    if (!warm.ok) fail_fault(r, *warm.fault);
    if (!warm.kernel_ms.empty()) each = std::max(each, summarize(warm.kernel_ms).median_ms);
  }
  if (each > 0) reps = std::max(reps, static_cast<int>(std::min<double>(kPairedMaxReps, kPairedMs / each)));
  rounds = std::max(1, std::min(rounds, reps));
  for (int k = 0; k < rounds; ++k) {
    w.reps = reps / rounds + (k < reps % rounds);
    for (int j = 0; j < 2; ++j) {
      const LaunchOutcome t = launch(r, w, Schedule::Fast, modules[j]);
      if (!t.ok) fail_fault(r, *t.fault);
      ms[j].insert(ms[j].end(), t.kernel_ms.begin(), t.kernel_ms.end());
    }
  }
  return {middle_mean(ms[0]), middle_mean(ms[1]), reps};
}

// The same kernel without the guard (docs/guard.md), loaded beside the
// guarded one in the same runner (a module of its own) and timed in turns
// with it (paired_times): the guard's cost in one process, under one clock.
// (Timed after the guarded reps, the built-ins and the paced round trips, as
// before, a kernel of 6-9 microseconds read 0.95x to 1.27x of itself from one
// run to the next: the GPU's clock had moved in between.)
void add_unguarded(Run& r, CompileRequest req, long long n, const BlockShape& b, Measurement& m) {
  req.guard = false;
  const CompileResult c = compile(req);
  if (!c.ok) fail(r, "the unguarded compile failed: " + c.first_error() + c.error, c.first_error_line(), 1);
  const std::string unguarded = r.module + "~unguarded";
  if (const LoadOutcome lo = r.client->load(c, kTimeLimitS, unguarded); !lo.ok) fail(r, lo.error, 0, 1);
  Workload w = first_launch(*r.spec, n, b);  // a reset, then the timed reps from there
  if (auto first = launch(r, w, Schedule::Fast, &unguarded); !first.ok) fail_fault(r, *first.fault);
  w.reset = false;
  const Paired p = paired_times(r, w, reps_of(r), r.module, unguarded);
  // The middle half's mean (middle_mean) of each one's launches in those turns.
  m.fields["unguarded_ms"] = p.b_ms;
  m.fields["guarded_paired_ms"] = p.a_ms;
  m.fields["guard_reps"] = p.reps;                 // launches of each in them
  m.fields["guard_ratio"] = p.b_ms > 0 ? p.a_ms / p.b_ms : 0.0;  // guarded / unguarded
}

// Edit to running: compile + load + first launch, kEditReps times (once for
// a challenge's judge; a compile the caller made is reused) (load_ms
// and edit_to_run_ms join the line). The first launch is the verdict's
// default case; the last one's read-back goes to `judging`, so the verdict
// does not run it again. `ahead` starts the verdict's own work at the last
// edit (made while it compiles): the reps before it are timed without it,
// and that last edit's time is the start of edit to verdict
// (edit_to_verdict_ms, set after the verdict). Stops after the compile when
// it cannot run here.
CompileResult edit_to_running(Run& r, const CompileRequest& req, bool can_run, const Workload& first_workload,
                              JudgeOptions& judging, std::vector<double>& compile_ms,
                              const std::function<void()>& ahead, double& last_edit_ms) {
  std::vector<double> edit_ms, load_ms;
  CompileResult c;
  // A challenge's judge: once; --edit-reps N: N times.
  const int edit_reps = r.opt.judge_only ? 1 : r.opt.edit_reps > 0 ? r.opt.edit_reps : kEditReps;
  for (int k = 0; k < edit_reps; ++k) {
    check_cancel(r.opt, 0.3f * k / edit_reps);  // the labs window's cancel
    const auto t0 = Clock::now();
    if (k == edit_reps - 1 && can_run) ahead();
    c = r.opt.compiled ? *r.opt.compiled : compile(req);
    compile_ms.push_back(c.compile_ms);
    if (!c.ok) {
      add_compile_fields(r, c, compile_ms);
      const std::string first = c.first_error();
      fail(r, r.path + ":" + (first.empty() ? "0: error: " + c.error : first), c.first_error_line(), 2,
           compiler_style(r.path, c));
    }
    if (!can_run) break;
    const LoadOutcome lo = r.client->load(c, kTimeLimitS, r.module);
    if (!lo.ok) fail(r, lo.error, 0, 1);
    load_ms.push_back(lo.load_ms);
    if (!lo.sandbox.empty()) r.line["sandbox"] = lo.sandbox;  // what confines it (CPU backend)
    c.resources = lo.resources;
    if (lo.uncapped_registers)  // the guard's register cap, weighed (runner/register_cap.h)
      r.line["register_cap"] = {
          {"raw", lo.raw_registers}, {"guarded", lo.uncapped_registers}, {"cap", lo.register_cap}, {"ms", lo.cap_ms}};
    if (lo.jit_ms > 0) {
      r.line["jit_ms"] = lo.jit_ms;
      r.line["jit_cpu_ms"] = {{"thread", lo.jit_thread_cpu_ms}, {"process", lo.jit_process_cpu_ms}};
    }
    LaunchOutcome first =
        r.client->launch(verdict_launch(*r.spec, first_workload, r.module, 0), kTimeLimitS, judging.slow_ceiling_s);
    if (!first.ok) {
      add_compile_fields(r, c, compile_ms);
      r.line["failed_case"] = verdict_cases(*r.spec).front().name;
      fail_fault(r, *first.fault);
    }
    edit_ms.push_back(ms_since(t0));
    last_edit_ms = edit_ms.back();
    // The emulator: how it ran the kernel (fission / fibers / loop) and, off the fast path, why.
    for (const char* k : {"path", "fast_path_off"})
      if (first.reply.contains(k)) r.line[std::string(k) == "path" ? "emulator_path" : k] = first.reply[k];
    judging.default_read_back = std::move(first.read_back);
  }
  if (!edit_ms.empty()) {
    r.line["load_ms"] = median_of(load_ms);
    r.line["edit_to_run_ms"] = median_of(edit_ms);
  }
  return c;
}

// A right answer on a GPU, checked for races on the CPU emulator (race_check.h:
// the device may not have shown one); its time apart from verdict_ms. A
// challenge's judge leaves it to explain, off the device's queue.
void add_race_check(Run& r, const std::string& src, uint64_t seed, Verdict& verdict) {
  if (!verdict.correct || !can_race(*r.spec)) return;
  const RaceCheck rc = check_races(*r.spec, src, r.opt.paths, seed, kTimeLimitS);
  r.line["race_check_ms"] = rc.ms;
  if (!rc.not_run.empty()) r.line["race_check"] = "not run: " + rc.not_run;
  add_race_case(verdict, rc);
}

// Over 60 lines: the target's steps in the order the line reports them (arguments, runner, edit to running, verdict, times).
std::vector<Measurement> run(const BenchOptions& opt, Backend backend) {
  if (!opt.source && !opt.source_text)
    throw UsageError("kernel: --source FILE.cu is required (the kernel to run)");
  // The labs window passes the kernel tab's text; the command line, a file.
  Run r{opt, backend, opt.source.value_or("kernel.cu"), nullptr, {}, nullptr, nullptr, "editor", {}};
  const std::string src = opt.source_text ? *opt.source_text : read_source(r.path);
  const std::string name = opt.template_name.value_or(template_from_source(src).value_or(""));
  if (name.empty())
    throw UsageError("bench kernel: '" + r.path +
                     "' does not name its template on its first line (// template: NAME); "
                     "give --template NAME (one of " + template_names() + ")");
  r.spec = find_template(name);
  if (!r.spec) throw UsageError("--template: unknown template '" + name + "' (one of " + template_names() + ")");
  // A whole kernel on the CPU backend runs in the emulator: a smaller default size.
  const bool emulated = emulated_on(*r.spec, backend);
  const long long n = opt.n.value_or(default_n_on(*r.spec, backend));
  if (n < 1 || n > r.spec->max_n)
    throw UsageError("--n: " + std::to_string(n) + " is out of range [1, " + std::to_string(r.spec->max_n) +
                     "] for " + r.spec->name);
  const BlockShape block = opt.block.value_or(r.spec->default_block);
  if (auto e = validate(block, block_limits(backend))) throw std::invalid_argument("--block: " + *e);
  // explain's size: the user's --n when its launch fits explain's limit (else
  // exit 2 before anything runs), or one explain picks from the shape rule.
  long long explain_size = 0;
  try {
    if (opt.explain) explain_size = explain_n(*r.spec, block, opt.n);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--explain: ") + e.what());
  }

  CompileRequest req;
  req.source = src;
  req.template_name = name;
  req.build = backend == Backend::Cpu && runs_on_cpu(*r.spec) ? usercode::BuildKind::Cpu : usercode::BuildKind::Gpu;
  req.file_name = r.path;
  req.paths = opt.paths;
  req.checked = opt.checked;
  req.guard = opt.guard;  // on the CPU backend: bounds-checked spans (compile())
  const bool can_run = !(backend == Backend::Cpu && req.build == usercode::BuildKind::Gpu);
  r.line["bench"] = "kernel";
  r.line["variant"] = "yours";
  r.line["backend"] = to_string(backend);
  r.line["template"] = r.spec->name;
  r.line["entry"] = r.spec->entry;  // the kernel's name, as a profiler filters it
  r.line["source"] = r.path;
  if (opt.checked) r.line["checked"] = true;
  r.line["guard"] = req.guard;
  if (emulated) {
    r.line["emulated"] = true;  // the CPU emulator ran it (docs/emulator.md)
    if (!opt.n && n != r.spec->default_n)
      r.line["n_note"] = "the emulator's default n " + std::to_string(n) + " (the GPU's is " +
                         std::to_string(r.spec->default_n) + "; --n N to choose)";
  }

  if (can_run) {
    if (opt.runner && opt.runner->backend() == backend) {
      // The app's own runner (the labs' "run your kernel"): a module of its own,
      // so the kernel a scene runs stays loaded.
      r.client = opt.runner.get();
      r.module = "lab";
    } else {
      std::string why;
      const std::string runner = find_runner(opt.paths.runner, &why);
      if (runner.empty()) fail(r, why, 0, 1);
      r.own = std::make_unique<RunnerClient>(runner, backend);
      r.client = r.own.get();
    }
    try {
      r.client->start();  // the process and its CUDA context: not part of an edit
    } catch (const std::exception& e) {
      fail(r, e.what(), 0, 1);
    }
  }
  // Edit to running: compile + load + first launch, kEditReps times. The
  // first launch is the verdict's default case (inputs from --seed or a new
  // seed); the last one's read-back is that case's, so the verdict does not
  // run it again.
  const uint64_t seed = opt.seed.value_or(fresh_seed());
  JudgeOptions judging = judge_options(r, n, block);
  const Workload first_workload = default_workload(*r.spec, backend, seed, judging);
  // The cases' inputs and references depend on the seed alone: made while the
  // (last) edit compiles; so is the CPU backend's verdict build of a whole kernel.
  auto ahead = [&] {
    if (!r.spec->check) return;
    judging.prepared = prepare_verdict(*r.spec, backend, seed, judging);
    r.client->build_verdict_ahead(r.module, opt.compiled && opt.compiled->request ? *opt.compiled->request : req);
  };
  std::vector<double> compile_ms;
  double last_edit_ms = 0;
  const CompileResult c = edit_to_running(r, req, can_run, first_workload, judging, compile_ms, ahead, last_edit_ms);
  add_compile_fields(r, c, compile_ms);
  if (opt.explain) add_explain(r, src, c, explain_size, block);
  if (backend == Backend::Cpu && !opt.judge_only && (emulated || opt.explain))
    add_sync_costs(r);
  if (!can_run)
    fail(r, "a " + r.spec->name + " kernel needs a CUDA GPU to run; it compiled for " + c.arch + " (" +
                std::to_string(c.ptx.size()) + " bytes of PTX) to show its errors",
         0, 1);
  r.line["max_threads"] = c.resources.max_threads;
  check_cancel(opt, 0.3f);

  Verdict verdict = judge(*r.spec, *r.client, seed, judging);
  r.line["verdict_ms"] = verdict.ms;  // after edit to running: the other cases and every check
  // The edit that made the verdict's work ready, to its verdict: what a student waits for.
  if (verdict.judged) r.line["edit_to_verdict_ms"] = last_edit_ms + verdict.ms;
  check_cancel(opt, 0.4f);
  if (backend == Backend::Cuda && !opt.judge_only) add_race_check(r, src, seed, verdict);
  Measurement m = measure(r, n, block, verdict);
  // From the command line the guard's cost is measured too; the labs window
  // (source_text) runs only the guarded kernel, as the student sees it.
  if (req.guard && req.build == usercode::BuildKind::Gpu && can_run && !opt.source_text) {
    check_cancel(opt, 0.9f);
    add_unguarded(r, req, n, block, m);
  }
  // Which way, against the same algorithm's built-in and the fastest; the guard's share.
  const KernelTraits traits = classify_kernel(src);
  m.fields["compare"] = to_json(compare(r.spec->feeds_name, traits, m.stats.median_ms, r.builtins,
                                        m.fields.value("guard_ratio", 0.0)), traits);
  if (c.guarded.ok) {
    r.line["memory_instructions"] = c.guarded.memory_instructions;
    r.line["guarded_instructions"] = c.guarded.guarded_instructions;
    r.line["grouped_instructions"] = c.guarded.grouped_instructions;  // of them, also checked in groups
    r.line["loop_proven_instructions"] = c.guarded.loop_proven_instructions;  // of them, checked once before their loop
  }
  nlohmann::ordered_json fields = r.line;
  for (const char* k : {"bench", "variant", "backend"}) fields.erase(k);
  for (auto it = m.fields.begin(); it != m.fields.end(); ++it) fields[it.key()] = it.value();
  m.fields = fields;
  return {m};
}

const Registrar reg({"kernel", "yours", {"yours"}, run, 1ll << 40, false, Target::Kind::Tool});

}  // namespace
}  // namespace cv::bench
