// The guard on the GPU (docs/guard.md). Each fault kind a student
// writes, guarded: the kernel finishes, the runner and its context live on,
// the reply names the access (what, which buffer or window, the line), no
// CUDA error; the same runner then runs the good template. Unguarded (suite
// GuardGpuUnguarded: these DO fault the GPU, run them where a fault cannot
// stop another process's OpenGL): the runner ends, as before the guard.
// The shipped kernels run guarded with their right answers (no false alarms).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "gpu/gpu_test_util.h"
#include "usercode/client/runner_client.h"
#include "usercode/client/verdict.h"
#include "common/device_report.h"
#include "usercode/runner/register_cap.h"
#include "usercode/compile/compile.h"
#include "usercode/templates/template_registry.h"
#include "test_config.h"

namespace cv::usercode {
namespace {

CompileResult build(const std::string& source, bool guard) {
  CompileRequest req;
  req.source = source;
  req.guard = guard;
  return compile(req);  // for the device's architecture
}

std::unique_ptr<RunnerClient> client_for(const CompileResult& c) {
  std::string why;
  const std::string path = find_runner(test_config().paths.runner, &why);
  EXPECT_FALSE(path.empty()) << why;
  auto client = std::make_unique<RunnerClient>(path, Backend::Cuda);
  const LoadOutcome lo = client->load(c, 2.0);
  EXPECT_TRUE(lo.ok) << lo.error;
  return client;
}

// A fountain kernel whose line 5 onwards is `body` (line 4 computes i).
std::string fountain_with(const std::string& body) {
  return "// template: fountain_kernel\n"
         "extern \"C\" __global__ void fountain_step(cv::Span<const float4> in, cv::Span<float4> out,\n"
         "    cv::Span<float> vy, cv::Grid g, cv::Frame f, cv::Params p, cv::Ids ids) {\n"
         "  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x + (blockIdx.y * blockDim.y + threadIdx.y) * g.width;\n" +
         body + "\n}\n";
}

// One step of the fountain template's workload (the registered rules).
LaunchRequest request() {
  Workload w;
  w.n = 65536;
  w.block = {16, 16, 1};
  w.reset = true;
  w.read_back = false;
  return make_launch(*find_template("fountain_kernel"), w);
}

struct FaultCase {
  const char* name;
  std::string body;
  std::vector<std::string> words;  // in the guard's message
  // Whether the hardware traps it unguarded. Local memory indexed past a
  // thread's frame does not: the local window is large and per-thread, and
  // the H100 does not fault on it (it reads another part of the window).
  // Nor does a read a few bytes past a small __shared__ array.
  bool faults_unguarded = true;
  size_t grouped = 0;  // at least this many accesses checked in groups
};

std::vector<FaultCase> cases() {
  return {
      {"RawWriteFarPastABuffer",
       "  if (i < g.count) out.data[i + (1ull << 30)] = make_float4(1, 2, 3, 4);",
       // The message names the buffer nearest the address (here vy, laid
       // out after out), not necessarily the one it was computed from.
       {"write of 16 bytes to ", " past its end (index ", "at line 5"}},
      {"PointerFromAnInteger",
       "  if (i < g.count) *reinterpret_cast<float*>(0x7f00000000ull + 4096ull * i) = 1.f;",
       {"write of 4 bytes", "at line 5"}},
      {"MisalignedFloat4Store",
       "  if (i < g.count) *reinterpret_cast<float4*>(reinterpret_cast<char*>(out.data) + 4) = make_float4(1, 2, 3, 4);",
       {"write of 16 bytes to out at byte 4, not a multiple of 16", "at line 5"}},
      {"IndexPastASharedArray",
       "  __shared__ float s[256];\n"
       "  const unsigned t = threadIdx.y * blockDim.x + threadIdx.x;\n"
       "  volatile float* vs = s;\n"
       "  vs[t + 100000u] = 1.f;\n"
       "  __syncthreads();\n"
       "  if (i < g.count) vy.data[i] = vs[t];",
       {"write of 4 bytes to shared memory", "past the end of the block's", "at line 8"}},
      // An unrolled loop's reads share one check (docs/guard.md "Grouped
      // checks"); one thread's run goes four past the array: its group's check
      // fails, the guarded copy runs and names the first read past the end.
      {"GroupedReadsPastASharedArray",
       "  __shared__ float s[64];\n"
       "  const unsigned t = threadIdx.x & 63u;\n"
       "  s[t] = float(t);\n"
       "  __syncthreads();\n"
       "  const unsigned start = (threadIdx.x == 5 && blockIdx.x == 3) ? 60u : 0u;\n"
       "  float a = 0.f;\n"
       "#pragma unroll\n"
       "  for (unsigned k = 0; k < 8; ++k) a += s[start + k];\n"
       "  if (i < g.count) vy.data[i] = a;",
       {"read of 4 bytes from shared memory at byte 256 of the block's 256 bytes", "(4 bytes past its end)",
        "by thread (5,", "at line 12"},
       false, 8},
      // A loop proven once (docs/guard.md "Loops proven once"): one thread's
      // stride takes its second trip 1 GiB past vy, so its check before the
      // loop fails, the guarded copy runs and names that write.
      {"ProvenLoopLeavesTheBuffer",
       "  const bool odd = threadIdx.x == 3 && blockIdx.x == 2 && blockIdx.y == 0 && threadIdx.y == 0;\n"
       "  const unsigned first = i * 4u % g.count, stride = odd ? (1u << 28) : 1u;\n"
       "#pragma unroll 1\n"
       "  for (unsigned k = 0; k < 4u; ++k) vy.data[first + k * stride] = 0.5f;",
       {"write of 4 bytes to ", "past its end", "by thread (3,0,0) of block (2,0,0)", "at line 8"}, false},
      // The fences (docs/guard.md "Fences"): a field read at a constant offset
      // through the argument's pointer, 4 GiB past the end, stopped and named
      // (the read gives 0).
      {"FencedFieldReadPastTheEnd",
       "  if (i < g.count) vy.data[i] = reinterpret_cast<const float*>(in.data + i + (1u << 28))[3];",
       {"read of 4 bytes from ", "past its end", "at line 5"}},
      // A block tree (a loop with a barrier): one thread's index leaves the
      // shared array; its fenced write is skipped and named, the barriers
      // still meet.
      {"FencedSharedWriteInABlockTree",
       "  __shared__ float s[256];\n"
       "  const unsigned t = threadIdx.y * blockDim.x + threadIdx.x;\n"
       "  s[t] = 1.f;\n"
       "  __syncthreads();\n"
       "  const unsigned bad = (t == 7 && blockIdx.x == 1) ? 4096u : 0u;\n"
       "  for (unsigned h = 128; h > 0; h /= 2) {\n"
       "    if (t < h) s[t + bad] += s[t + h];\n"
       "    __syncthreads();\n"
       "  }\n"
       "  if (i < g.count) vy.data[i] = s[0];",
       // s[t + bad] is read first (+=): at byte (7 + 4096) * 4 of the block's 1024.
       {"read of 4 bytes from shared memory 15 KiB past the end of the block's 1 KiB of shared memory", "by thread (7,0,0) of block (1,",
        "at line 11"},
       false},
      {"LocalArrayIndexedOutOfRange",
       "  float a[8];\n"
       "  for (int k = 0; k < 8; ++k) a[k] = g.width * k + i;\n"
       "  volatile unsigned far = 1u << 26;\n"
       "  if (i < g.count) vy.data[i] = a[(i & 7) + far];",
       {"read of 4 bytes from a local array", "past the end of the thread's frame", "at line 8"},
       false},
  };
}

TEST(GuardGpu, EachFaultKindIsStoppedAndNamed) {
  CV_REQUIRE_GPU();
  for (const FaultCase& fc : cases()) {
    SCOPED_TRACE(fc.name);
    const CompileResult c = build(fountain_with(fc.body), true);
    ASSERT_TRUE(c.ok) << c.first_error() << c.error << c.log;
    ASSERT_TRUE(c.guarded.ok);
    EXPECT_GE(c.guarded.grouped_instructions, fc.grouped);
    auto client = client_for(c);
    const LaunchOutcome out = client->launch(request(), 2.0);
    ASSERT_FALSE(out.ok) << "the guard reports the access";
    const KernelFault& f = *out.fault;
    EXPECT_EQ(f.error_name, "guard") << f.describe();
    for (const std::string& w : fc.words) EXPECT_NE(f.explanation.find(w), std::string::npos) << w << " in: " << f.explanation;
    EXPECT_NE(f.explanation.find("by thread ("), std::string::npos) << f.explanation;
    // The line the message names is the line the editor marks (error_line).
    for (const std::string& w : fc.words)
      if (w.rfind("at line ", 0) == 0) EXPECT_EQ(f.error_line(), std::stoi(w.substr(8))) << f.describe();
    EXPECT_TRUE(client->running()) << "no CUDA error: the runner and its context live on";
    // The same runner runs the good template, guarded, with no alarm.
    const LoadOutcome lo = client->load(build(read_template_source(*find_template("fountain_kernel"), test_config().paths), true), 2.0);
    ASSERT_TRUE(lo.ok) << lo.error;
    const LaunchOutcome good = client->launch(request(), 2.0);
    EXPECT_TRUE(good.ok) << (good.fault ? good.fault->describe() : "");
  }
}

// A fence's quick compare is conservative at a buffer's very end (a field
// at a constant offset rounds the access up to a width class): such an
// access goes out of line, is checked exactly and runs. No alarm, the right
// value: the last float3 of vy read as three floats.
TEST(GuardGpu, AnAccessAtTheVeryEndRunsThroughTheExactCheck) {
  CV_REQUIRE_GPU();
  const CompileResult c = build(fountain_with(
      "  const unsigned last = g.count / 3 - 1;\n"
      "  if (i == 0) { const float3 v = reinterpret_cast<const float3*>(vy.data)[last]; vy.data[0] = v.x + v.y + v.z; }"),
      true);
  ASSERT_TRUE(c.ok) << c.first_error() << c.error;
  auto client = client_for(c);
  const LaunchOutcome out = client->launch(request(), 2.0);
  EXPECT_TRUE(out.ok) << (out.fault ? out.fault->describe() : "");
}

// Every registered template and example, guarded, on its own workload (as
// bench kernel runs it, at a smaller size): no guard alarm, and the
// templates' own checks pass (examples may be wrong on purpose: racy).
TEST(GuardGpu, ShippedKernelsRunGuardedWithTheirAnswers) {
  CV_REQUIRE_GPU();
  for (const TemplateEntry& e : template_entries()) {
    SCOPED_TRACE(e.name);
    const CompileResult c = build(read_template_source(e, test_config().paths), true);
    ASSERT_TRUE(c.ok) << c.first_error() << c.error;
    ASSERT_TRUE(c.guarded.ok);
    auto client = client_for(c);
    const TemplateSpec& spec = *e.spec;
    JudgeOptions o;
    o.n = std::min<long long>(spec.default_n, 1 << 20);
    o.time_limit_s = 2.0;
    ASSERT_TRUE(client->load(c, 2.0).ok);
    const Verdict v = judge(spec, *client, fresh_seed(), o);
    for (const CaseOutcome& k : v.cases)
      EXPECT_NE(k.status, CaseOutcome::Status::Fault) << k.name << ": " << (k.fault ? k.fault->describe() : k.error);
    if (spec.check && !e.example) EXPECT_TRUE(v.correct) << v.summary();
  }
}

// Students' kernels of the kinds that cost most to guard (tests/corpus:
// loops over shared tiles, early-exit searches, block trees, grid-stride,
// unrolled and warp-shuffle loops), guarded: their right answers, no alarm,
// and their loops proven where the shape allows.
TEST(GuardGpu, CorpusKernelsRunGuardedWithTheirAnswers) {
  CV_REQUIRE_GPU();
  // tests/corpus beside the shipped kernels' assets/ (the repository root).
  const std::filesystem::path root =
      std::filesystem::path(kernel_dir(test_config().paths)).parent_path().parent_path() / "tests" / "corpus";
  ASSERT_TRUE(std::filesystem::is_directory(root)) << root;
  int kernels = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
    if (e.path().extension() != ".cu") continue;
    std::ifstream in(e.path());
    std::stringstream text;
    text << in.rdbuf();
    const std::string src = text.str();
    if (src.find("// expect: correct") == std::string::npos) continue;  // another helper's wrong ones
    SCOPED_TRACE(e.path().string());
    ++kernels;
    const CompileResult c = build(src, true);
    ASSERT_TRUE(c.ok) << c.first_error() << c.error;
    ASSERT_TRUE(c.guarded.ok);
    auto client = client_for(c);
    const TemplateSpec& spec = *c.spec;
    // The template's whole test set, guarded: every case right.
    const Verdict v = judge(spec, *client, spec.default_seed);
    EXPECT_TRUE(v.correct) << v.summary();
  }
  EXPECT_GE(kernels, 15);
}

// The guard's register cap (runner/register_cap.h): the shared-tile search of
// tests/corpus/corelated, whose guarded form took 64 registers to the
// unguarded 27 on sm_90, holds as many warps guarded as unguarded (on any
// device: both counted as loaded here) and keeps its right answers.
TEST(GuardGpu, AGuardedKernelHoldsTheUnguardedKernelsWarps) {
  CV_REQUIRE_GPU();
  const std::filesystem::path file = std::filesystem::path(kernel_dir(test_config().paths)).parent_path().parent_path() /
                                     "tests" / "corpus" / "corelated" / "guard_shared_tiles.cu";
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  const CompileResult guarded = build(text.str(), true), raw = build(text.str(), false);
  ASSERT_TRUE(guarded.ok && guarded.guarded.ok) << guarded.first_error() << guarded.error;
  ASSERT_TRUE(raw.ok) << raw.first_error() << raw.error;
  auto client = client_for(guarded);
  const LoadOutcome g = client->load(guarded, 5.0, "guarded"), u = client->load(raw, 5.0, "raw");
  ASSERT_TRUE(g.ok && u.ok) << g.error << u.error;
  ASSERT_TRUE(g.resources.known && u.resources.known);
  const OccupancyDevice file_of_device = to_occupancy_device(device_report());
  EXPECT_GE(runner::resident_warps(g.resources.registers, file_of_device),
            runner::resident_warps(u.resources.registers, file_of_device))
      << "guarded " << g.resources.registers << " registers (before the cap " << g.uncapped_registers << ", cap "
      << g.register_cap << "), unguarded " << u.resources.registers;
  // (The runner's count of the unguarded kernel is the driver JIT's; the
  // unguarded load above is NVRTC's ptxas: they may differ by a driver.)
  if (g.register_cap) EXPECT_LE(g.resources.registers, g.register_cap);
  // The load says where its time went: the runner's JIT, and the cap's work when it weighed one.
  EXPECT_GT(g.jit_ms, 0);
  EXPECT_LE(g.jit_ms, g.load_ms);
  // And how much of it was compiling: the JIT thread's CPU time is some of
  // its wall time, and part of the whole runner's meanwhile.
  EXPECT_GT(g.jit_thread_cpu_ms, 0);
  EXPECT_LE(g.jit_thread_cpu_ms, g.jit_ms + 1);
  EXPECT_GE(g.jit_process_cpu_ms + 1, g.jit_thread_cpu_ms);
  if (g.uncapped_registers) EXPECT_GT(g.cap_ms, 0);
  ASSERT_TRUE(client->load(guarded, 5.0).ok);
  const Verdict v = judge(*guarded.spec, *client, guarded.spec->default_seed);
  EXPECT_TRUE(v.correct) << v.summary();
}

// Checked mode with the guard: an s[i] out of range is named at its line
// (the guard fills the prelude's line marker), as s.at(i) is.
TEST(GuardGpu, CheckedSubscriptIsNamedAtItsLine) {
  CV_REQUIRE_GPU();
  for (const char* access : {"out[i + 1] = make_float4(1, 2, 3, 4);", "out.at(i + 1) = make_float4(1, 2, 3, 4);"}) {
    SCOPED_TRACE(access);
    CompileRequest req;
    req.source = fountain_with(std::string("  if (i < g.count) ") + access);
    req.guard = true;
    req.checked = true;
    const CompileResult c = compile(req);
    ASSERT_TRUE(c.ok) << c.first_error() << c.error;
    auto client = client_for(c);
    const LaunchOutcome out = client->launch(request(), 2.0);
    ASSERT_FALSE(out.ok);
    const KernelFault& f = *out.fault;
    EXPECT_EQ(f.error_name, "out of range") << f.describe();
    ASSERT_TRUE(f.out_of_range);
    EXPECT_EQ(f.out_of_range->line, 5) << f.describe();
    EXPECT_EQ(f.error_line(), 5);
    EXPECT_EQ(f.out_of_range->index, 65536);
    EXPECT_TRUE(client->running());
  }
}

TEST(GuardGpuUnguarded, EachFaultKindEndsOnlyTheRunner) {
  CV_REQUIRE_GPU();
  for (const FaultCase& fc : cases()) {
    SCOPED_TRACE(fc.name);
    if (!fc.faults_unguarded) continue;  // no trap to end the runner (see FaultCase)
    const CompileResult c = build(fountain_with(fc.body), false);
    ASSERT_TRUE(c.ok) << c.first_error() << c.error;
    auto client = client_for(c);
    const LaunchOutcome out = client->launch(request(), 2.0);
    ASSERT_FALSE(out.ok);
    EXPECT_NE(out.fault->error_name, "guard");
    EXPECT_FALSE(client->running()) << out.fault->describe();
  }
}

}  // namespace
}  // namespace cv::usercode
