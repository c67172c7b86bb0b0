// `cudaviz bench kernel --source FILE.cu [--template NAME]`: a student's
// kernel (docs/kernels.md) compiled with NVRTC (or the host compiler on the
// CPU path), run in the runner process on the template's workload, checked
// against the built-in answer and timed beside the built-in variants measured
// in the same run. One JSON line; a compile error prints FILE:LINE: error:
// lines on stderr and exits 2, a fault exits 1, both still print the line.
// The labs window's "run your kernel" (bench/kernel_action.h) runs this same
// target on the kernel tab's text (BenchOptions::source_text), checked.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <sstream>

#include "bench/bench.h"
#include "common/cuda_resources.h"
#include "fountain/fountain.h"
#include "labs/pi/pi.h"
#include "labs/reduce/reduce.h"
#include "usercode/compile.h"
#include "usercode/pi_reference.h"
#include "usercode/runner_client.h"
#include "usercode/templates.h"
#include "usercode/emu/explain_process.h"
#include "usercode/temp_dir.h"

#ifndef CUDAVIZ_EXPLAIN_PATH
#define CUDAVIZ_EXPLAIN_PATH ""
#endif

namespace cv::bench {
namespace {

using namespace usercode;
using Clock = std::chrono::steady_clock;

constexpr int kEditReps = 5;          // edit-to-running measured this many times (median)
constexpr double kTimeLimitS = 2.0;   // the app's default per-launch limit
constexpr int kCheckSteps = 120;      // fountain steps compared with the built-in
constexpr uint64_t kLabSeed = 1;      // the labs' data seed (bench count3 / pi)

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
  const TemplateInfo* tmpl = nullptr;
  nlohmann::ordered_json line;
  std::unique_ptr<RunnerClient> client;
};

[[noreturn]] void fail(Run& r, const std::string& error, int error_line, int code,
                       const std::string& diagnostics = "") {
  r.line["error"] = error;
  r.line["error_line"] = error_line;
  throw TargetFailure(error, r.line, diagnostics, code);
}

[[noreturn]] void fail_fault(Run& r, const KernelFault& f) {
  r.line["error_name"] = f.error_name;
  fail(r, f.describe(), f.out_of_range ? f.out_of_range->line : 0, 1);
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
  r.line["template"] = c.template_name.empty() ? r.tmpl->name : c.template_name;
  r.line["source"] = r.path;
  r.line["arch"] = c.arch;
  r.line["compile_ms"] = median_of(compile_ms);
  r.line["registers"] = c.resources.known ? nlohmann::ordered_json(c.resources.registers) : nullptr;
  r.line["shared_bytes"] = c.resources.known ? nlohmann::ordered_json(c.resources.shared_bytes) : nullptr;
  r.line["local_bytes"] = c.resources.known ? nlohmann::ordered_json(c.resources.local_bytes) : nullptr;
  r.line["warnings"] = std::count_if(c.diagnostics.begin(), c.diagnostics.end(),
                                     [](const Diagnostic& d) { return d.severity == Severity::Warning; });
}

// --explain (any backend): the kernel once through the emulator at a small
// size, in cudaviz-explain's process; races, sectors and divergence join the line.
void add_explain(Run& r, const std::string& src) {
  const auto t0 = Clock::now();
  TempDir dir(r.opt.paths.tmpdir);
  const std::string path = dir.path() + "/kernel.cu";
  {
    std::ofstream f(path, std::ios::binary);
    f << src;
  }
  emu::ExplainRequest q;
  q.source_path = path;
  q.template_name = to_string(r.tmpl->kind);
  if (!r.opt.paths.cxx.empty()) q.cxx = r.opt.paths.cxx;
  if (!r.opt.paths.tmpdir.empty()) q.tmpdir = r.opt.paths.tmpdir;
  const emu::ExplainOutcome o = emu::run_explain_process(emu::find_explain_helper(CUDAVIZ_EXPLAIN_PATH), q);
  r.line["explain_ms"] = ms_since(t0);
  if (!o.ran) {
    r.line["explain_error"] = o.error;
    return;
  }
  if (!o.reply.value("ok", false)) r.line["explain_error"] = o.reply.value("error", std::string("failed"));
  if (!o.reply.contains("explain")) return;
  const nlohmann::json& x = o.reply["explain"];
  r.line["explain_n"] = o.reply.value("n", 0ll);
  for (const char* k : {"races", "racy_elements", "sectors_per_request", "divergent_branches", "scope"})
    if (x.contains(k)) r.line[std::string(k == std::string("scope") ? "explain_scope" : k)] = x[k];
}

// The CPU backend runs whole kernels in the emulator: what its barrier and
// shuffle cost per thread (a micro-kernel, in cudaviz-explain's process).
void add_sync_costs(Run& r) {
  const emu::ExplainOutcome o = emu::run_sync_costs_process(
      emu::find_explain_helper(CUDAVIZ_EXPLAIN_PATH), r.opt.paths.cxx.empty() ? "c++" : r.opt.paths.cxx,
      r.opt.paths.tmpdir.empty() ? "/tmp" : r.opt.paths.tmpdir);
  if (!o.ran || !o.reply.value("ok", false)) return;
  r.line["barrier_ns_per_thread"] = o.reply["barrier_ns_per_thread"];
  r.line["shuffle_ns_per_thread"] = o.reply["shuffle_ns_per_thread"];
}

// ---- the workloads: the first launch (edit-to-running) and the measurements ----

FountainRequest fountain_request(unsigned n, const BlockShape& b, bool reset) {
  FountainRequest q;
  q.count = n;
  q.block = b;
  q.reset = reset;
  q.seed = 42;
  return q;
}

LaunchOutcome first_launch(Run& r, long long n, const BlockShape& b) {
  switch (r.tmpl->kind) {
    case TemplateKind::FountainKernel:
    case TemplateKind::FountainParticle:
      return r.client->fountain(fountain_request(static_cast<unsigned>(n), b, true), kTimeLimitS);
    case TemplateKind::Count3:
      return r.client->count3({n, kLabSeed, b, 1}, kTimeLimitS);
    case TemplateKind::Pi:
      return r.client->pi({n, kLabSeed, b, 1}, kTimeLimitS);
  }
  return {};
}

// Positions after kCheckSteps of the built-in lean fountain on `backend`.
std::vector<float4> builtin_positions(Backend backend, unsigned n, const BlockShape& b,
                                      const fountain::Params& p) {
  fountain::FrameClock clock(7);
  if (backend == Backend::Cpu) {
    fountain::FountainCpu sim(n, fountain::Variant::Lean);
    sim.reset(p, 42);
    for (int k = 0; k < kCheckSteps; ++k) sim.step(clock.next(p), p);
    return sim.vbo();
  }
  CudaStream stream;
  DeviceBuffer<float4> vbo(n);
  fountain::FountainGpu sim(n, fountain::Variant::Lean);
  sim.reset(vbo.get(), p, 42, stream.get());
  for (int k = 0; k < kCheckSteps; ++k) sim.step(vbo.get(), clock.next(p), p, b, stream.get());
  std::vector<float4> host(n);
  CV_CUDA(cudaMemcpyAsync(host.data(), vbo.get(), n * sizeof(float4), cudaMemcpyDeviceToHost, stream.get()));
  stream.synchronize();
  return host;
}

Measurement measure_fountain(Run& r, unsigned n, const BlockShape& b) {
  const fountain::Params p;
  Measurement m = make_measurement("yours", r.backend, n, b);
  // Correctness: the same frames from the same start as the built-in.
  fountain::FrameClock clock(7);
  LaunchOutcome last;
  for (int k = 0; k < kCheckSteps; ++k) {
    FountainRequest q = fountain_request(n, b, k == 0);
    q.frame = clock.next(p);
    q.params = p;
    q.return_positions = k + 1 == kCheckSteps;
    last = r.client->fountain(q, kTimeLimitS);
    if (!last.ok) fail_fault(r, *last.fault);
  }
  const std::vector<float4> ref = builtin_positions(r.backend, n, b, p);
  long long matching = 0;
  for (unsigned i = 0; i < n; ++i) {
    const float want[4] = {ref[i].x, ref[i].y, ref[i].z, ref[i].w};
    bool same = true;
    for (int c = 0; c < 4; ++c)
      same = same && std::fabs(last.positions[4 * i + c] - want[c]) <= 1e-3f * (1 + std::fabs(want[c]));
    matching += same;
  }
  // Kernel time (CUDA events / host clock in the runner), then the whole
  // round trip the scene pays a frame (request, launch, reply).
  const int reps = r.opt.reps ? r.opt.reps : (r.backend == Backend::Cuda ? 200 : 20);
  FountainRequest warm = fountain_request(n, b, false);
  warm.steps = 10;
  if (auto w = r.client->fountain(warm, kTimeLimitS); !w.ok) fail_fault(r, *w.fault);
  FountainRequest timed = fountain_request(n, b, false);
  timed.steps = reps;
  const LaunchOutcome t = r.client->fountain(timed, kTimeLimitS);
  if (!t.ok) fail_fault(r, *t.fault);
  m.stats = summarize(t.kernel_ms);
  std::vector<double> trips;
  for (int k = 0; k < std::min(reps, 100); ++k) {
    const auto t0 = Clock::now();
    const LaunchOutcome one = r.client->fountain(fountain_request(n, b, false), kTimeLimitS);
    if (!one.ok) fail_fault(r, *one.fault);
    trips.push_back(ms_since(t0));
  }
  // The built-in variants, same shape, same process run.
  nlohmann::ordered_json vs = nlohmann::ordered_json::object();
  double lean_ms = 0;
  for (fountain::Variant v : fountain::all_variants()) {
    check_cancel(r.opt, 0.6f);
    fountain::FrameClock c2(7);
    Stats s;
    if (r.backend == Backend::Cuda) {
      CudaStream stream;
      DeviceBuffer<float4> vbo(fountain::vbo_bytes(v, n) / sizeof(float4));
      fountain::FountainGpu sim(n, v);
      sim.reset(vbo.get(), p, 42, stream.get());
      s = time_cuda([&](cudaStream_t st) { sim.step(vbo.get(), c2.next(p), p, b, st); }, 20, reps, stream.get());
    } else {
      fountain::FountainCpu sim(n, v);
      sim.reset(p, 42);
      s = time_host([&] { sim.step(c2.next(p), p); }, 2, reps);
    }
    if (v == fountain::Variant::Lean) lean_ms = s.median_ms;
    vs[fountain::to_string(v)] = s.median_ms / m.stats.median_ms;
  }
  const double frame_ms = median_of(trips);
  m.fields["particles_per_s"] = n / (m.stats.median_ms * 1e-3);
  m.fields["frame_ms_median"] = frame_ms;           // what a scene frame pays for yours
  m.fields["builtin_ms_median"] = lean_ms;          // the built-in lean kernel
  m.fields["overhead_ms"] = frame_ms - lean_ms;     // yours, per frame, beyond the built-in
  m.fields["result"] = matching;                    // particles equal to the built-in's after 120 steps
  m.fields["reference"] = n;
  m.fields["correct"] = matching == n;
  m.fields["vs"] = vs;
  return m;
}

Measurement measure_count3(Run& r, long long n, const BlockShape& b) {
  Measurement m = make_measurement("yours", r.backend, n, b);
  const std::vector<int32_t> data = reduce::make_data(static_cast<size_t>(n), kLabSeed);
  const int64_t reference = reduce::cpu_threads(reduce::Op::Count3, data.data(), data.size());
  const int reps = r.opt.reps ? r.opt.reps : 50;
  const LaunchOutcome t = r.client->count3({n, kLabSeed, b, reps}, kTimeLimitS);
  if (!t.ok) fail_fault(r, *t.fault);
  m.stats = summarize(t.kernel_ms);
  nlohmann::ordered_json vs = nlohmann::ordered_json::object();
  {
    CudaStream stream;
    DeviceBuffer<int32_t> d(std::max<long long>(n, 1));
    CV_CUDA(cudaMemcpy(d.get(), data.data(), data.size() * sizeof(int32_t), cudaMemcpyHostToDevice));
    reduce::ReduceGpu gpu(reduce::Op::Count3, std::max<long long>(n, 1));
    for (reduce::Variant v : reduce::all_variants()) {
      if (!reduce::is_gpu(v) || v == reduce::Variant::Thrust) continue;
      check_cancel(r.opt, 0.6f);
      try {  // a variant that refuses this block shape has no ratio
        const Stats s = time_cuda([&](cudaStream_t st) { gpu.run(v, d.get(), n, b, st); }, 2, reps, stream.get());
        vs[reduce::to_string(v)] = s.median_ms / m.stats.median_ms;
      } catch (const std::invalid_argument&) {
        vs[reduce::to_string(v)] = nullptr;
      }
    }
  }
  m.fields["gb_per_s"] = 4.0 * n / (m.stats.median_ms * 1e-3) * 1e-9;
  m.fields["result"] = t.result;
  m.fields["reference"] = reference;
  m.fields["correct"] = t.result == reference;
  m.fields["vs"] = vs;
  return m;
}

Measurement measure_pi(Run& r, long long n, const BlockShape& b) {
  Measurement m = make_measurement("yours", r.backend, n, b);
  const uint64_t reference = pi_reference_hits(static_cast<uint64_t>(n), kLabSeed);
  const int reps = r.opt.reps ? r.opt.reps : 20;
  const LaunchOutcome t = r.client->pi({n, kLabSeed, b, reps}, kTimeLimitS);
  if (!t.ok) fail_fault(r, *t.fault);
  m.stats = summarize(t.kernel_ms);
  nlohmann::ordered_json vs = nlohmann::ordered_json::object();
  {
    CudaStream stream;
    pi::PiGpu gpu;
    for (pi::Variant v : {pi::Variant::Many, pi::Variant::Fast}) {
      check_cancel(r.opt, 0.6f);
      try {
        const BlockShape eb = pi::effective_block(v, b);
        const Stats s = time_cuda([&](cudaStream_t st) { gpu.run(v, n, kLabSeed, eb, st); }, 2, reps, stream.get());
        vs[pi::to_string(v)] = s.median_ms / m.stats.median_ms;
      } catch (const std::invalid_argument&) {
        vs[pi::to_string(v)] = nullptr;
      }
    }
  }
  m.fields["samples_per_s"] = n / (m.stats.median_ms * 1e-3);
  m.fields["pi_estimate"] = 4.0 * static_cast<double>(t.result) / static_cast<double>(n);
  m.fields["result"] = t.result;
  m.fields["reference"] = reference;
  m.fields["correct"] = static_cast<uint64_t>(t.result) == reference;
  m.fields["vs"] = vs;
  return m;
}

std::vector<Measurement> run(const BenchOptions& opt, Backend backend) {
  if (!opt.source && !opt.source_text)
    throw UsageError("kernel: --source FILE.cu is required (the kernel to run)");
  // The labs window passes the kernel tab's text; the command line, a file.
  Run r{opt, backend, opt.source.value_or("kernel.cu"), nullptr, {}, nullptr};
  const std::string src = opt.source_text ? *opt.source_text : read_source(r.path);
  const std::string name = opt.template_name.value_or(template_from_source(src).value_or(""));
  if (name.empty())
    throw UsageError("bench kernel: '" + r.path +
                     "' does not name its template on its first line (// template: NAME); "
                     "give --template NAME (one of " + template_names() + ")");
  r.tmpl = find_template(name);
  if (!r.tmpl) throw UsageError("--template: unknown template '" + name + "' (one of " + template_names() + ")");
  const TemplateKind kind = r.tmpl->kind;
  const bool fountain = kind == TemplateKind::FountainKernel || kind == TemplateKind::FountainParticle;
  const long long n = opt.n.value_or(fountain ? 256 * 256 : 1 << 24);
  const long long max_n = fountain ? (1ll << 26) : kind == TemplateKind::Count3 ? (1ll << 30) : (1ll << 40);
  if (n < 1 || n > max_n)
    throw UsageError("--n: " + std::to_string(n) + " is out of range [1, " + std::to_string(max_n) + "] for " + to_string(kind));
  const BlockShape block = opt.block.value_or(fountain ? BlockShape{16, 16, 1} : BlockShape{256, 1, 1});
  if (auto e = validate(block, block_limits(backend))) throw std::invalid_argument("--block: " + *e);

  CompileRequest req;
  req.source = src;
  req.template_name = name;
  req.target = backend == Backend::Cpu && runs_on_cpu(kind) ? usercode::Target::Cpu : usercode::Target::Gpu;
  req.file_name = r.path;
  req.paths = opt.paths;
  req.checked = opt.checked;
  const bool can_run = !(backend == Backend::Cpu && req.target == usercode::Target::Gpu);
  r.line["bench"] = "kernel";
  r.line["variant"] = "yours";
  r.line["backend"] = to_string(backend);
  r.line["template"] = r.tmpl->name;
  r.line["source"] = r.path;
  if (opt.checked) r.line["checked"] = true;

  if (can_run) {
    std::string why;
    const std::string runner = find_runner(opt.paths.runner, &why);
    if (runner.empty()) fail(r, why, 0, 1);
    r.client = std::make_unique<RunnerClient>(runner, backend);
    try {
      r.client->start();  // the process and its CUDA context: not part of an edit
    } catch (const std::exception& e) {
      fail(r, e.what(), 0, 1);
    }
  }
  // Edit to running: compile + load + first launch, kEditReps times.
  std::vector<double> compile_ms, edit_ms, load_ms;
  CompileResult c;
  for (int k = 0; k < kEditReps; ++k) {
    check_cancel(opt, 0.3f * k / kEditReps);  // the labs window's cancel
    const auto t0 = Clock::now();
    c = compile(req);
    compile_ms.push_back(c.compile_ms);
    if (!c.ok) {
      add_compile_fields(r, c, compile_ms);
      const std::string first = c.first_error();
      fail(r, r.path + ":" + (first.empty() ? "0: error: " + c.error : first), c.first_error_line(), 2,
           compiler_style(r.path, c));
    }
    if (!can_run) break;
    const LoadOutcome lo = r.client->load(c, kTimeLimitS);
    if (!lo.ok) fail(r, lo.error, 0, 1);
    load_ms.push_back(lo.load_ms);
    c.resources = lo.resources;
    const LaunchOutcome first = first_launch(r, n, block);
    if (!first.ok) {
      add_compile_fields(r, c, compile_ms);
      fail_fault(r, *first.fault);
    }
    edit_ms.push_back(ms_since(t0));
  }
  add_compile_fields(r, c, compile_ms);
  if (opt.explain) add_explain(r, src);
  if (backend == Backend::Cpu && (kind != TemplateKind::FountainParticle || opt.explain)) add_sync_costs(r);
  if (!can_run)
    fail(r, std::string("a ") + to_string(kind) + " kernel needs a CUDA GPU to run; it compiled for " +
                c.arch + " (" + std::to_string(c.ptx.size()) + " bytes of PTX) to show its errors",
         0, 1);
  r.line["max_threads"] = c.resources.max_threads;
  r.line["load_ms"] = median_of(load_ms);
  r.line["edit_to_run_ms"] = median_of(edit_ms);
  check_cancel(opt, 0.3f);

  Measurement m = fountain ? measure_fountain(r, static_cast<unsigned>(n), block)
                           : kind == TemplateKind::Count3 ? measure_count3(r, n, block)
                                                          : measure_pi(r, n, block);
  nlohmann::ordered_json fields = r.line;
  for (const char* k : {"bench", "variant", "backend"}) fields.erase(k);
  for (auto it = m.fields.begin(); it != m.fields.end(); ++it) fields[it.key()] = it.value();
  m.fields = fields;
  return {m};
}

const Registrar reg({"kernel", "yours", {"yours"}, run, 1ll << 40, false, Target::Kind::Tool});

}  // namespace
}  // namespace cv::bench
