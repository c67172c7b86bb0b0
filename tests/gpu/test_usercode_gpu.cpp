// Your kernel on the GPU: every shipped template and example run in the
// runner process and match the built-in kernels; a faulting, a trapping, a
// misaligned and a looping kernel end only the runner, with the right words,
// and the next load starts a fresh one; checked mode names the index, thread,
// block and line; the runner writes the app's exported VMM buffer.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <sstream>

#include "common/cuda_resources.h"
#include "fountain/fountain.h"
#include "gl/external_memory.h"
#include "gpu/gpu_test_util.h"
#include "labs/reduce/reduce.h"
#include "usercode/compile/compile.h"
#include "usercode/templates/pi_reference.h"
#include "usercode/client/runner_client.h"
#include "usercode/templates/fountain_args.h"
#include "usercode/templates/template_registry.h"
#include "test_config.h"

namespace cv::usercode {
namespace {

CompileResult build(const std::string& source, bool checked = false) {
  CompileRequest req;
  req.source = source;
  req.checked = checked;
  return compile(req);  // for the device's architecture
}

std::string shipped(const std::string& name) { return read_template_source(*find_entry(name), test_config().paths); }

std::unique_ptr<RunnerClient> client_for(const CompileResult& c) {
  std::string why;
  const std::string path = find_runner(test_config().paths.runner, &why);
  EXPECT_FALSE(path.empty()) << why;
  auto client = std::make_unique<RunnerClient>(path, Backend::Cuda);
  const LoadOutcome lo = client->load(c, 2.0);
  EXPECT_TRUE(lo.ok) << lo.error;
  EXPECT_GT(lo.resources.registers, 0);
  EXPECT_GT(lo.resources.max_threads, 0);
  return client;
}

// A launch by the registered rules of `name`'s template (an example: its template's).
LaunchRequest by_rules(const std::string& name, Workload w) { return make_launch(*find_template(name), w); }

// One fountain step with this frame and these parameters.
struct FountainStep {
  LaunchRequest request;
  fountain::Frame frame;
  fountain::Params params;
};

LaunchRequest fountain_step(unsigned n, const BlockShape& b, bool reset, uint64_t seed,
                            const fountain::Frame& f, const fountain::Params& p, bool read_back) {
  Workload w;
  w.n = n;
  w.block = b;
  w.reset = reset;
  w.seed = seed;
  w.read_back = read_back;
  put(w, fountain_args::frame, f);
  put(w, fountain_args::params, p);
  return by_rules("fountain_kernel", w);
}

// A lab launch: n elements of `seed`'s data, `reps` launches.
LaunchRequest lab_step(const std::string& name, long long n, uint64_t seed, const BlockShape& b, int reps = 1) {
  Workload w;
  w.n = n;
  w.seed = seed;
  w.block = b;
  w.reps = reps;
  return by_rules(name, w);
}

long long first_u64(const LaunchOutcome& out, const std::string& name) {
  const std::vector<long long> v = out.values<long long>(name);
  return v.empty() ? -1 : v[0];
}

// The built-in lean fountain stepping beside the student's: the same seed,
// parameters and frames. next() gives the runner's request for the next frame
// and steps the built-in with it.
struct BuiltInBeside {
  explicit BuiltInBeside(unsigned count) : n(count), vbo(count), ref(count, fountain::Variant::Lean) {
    ref.reset(vbo.get(), p, kSeed, stream.get());
  }
  FountainStep next(const BlockShape& b, bool return_positions) {
    FountainStep q;
    q.frame = clock.next(p);
    q.params = p;
    q.request = fountain_step(n, b, steps++ == 0, kSeed, q.frame, p, return_positions);
    ref.step(vbo.get(), q.frame, p, b, stream.get());
    return q;
  }
  // The stream is non-blocking: a plain cudaMemcpy does not wait for its kernels, and
  // while the runner's context holds the GPU the last built-in steps may still be queued.
  std::vector<float4> positions() {
    CV_CUDA(cudaStreamSynchronize(stream.get()));
    std::vector<float4> v(n);
    CV_CUDA(cudaMemcpy(v.data(), vbo.get(), n * sizeof(float4), cudaMemcpyDeviceToHost));
    return v;
  }
  static constexpr uint64_t kSeed = 7;
  unsigned n;
  fountain::Params p;
  fountain::FrameClock clock{3};
  CudaStream stream;
  DeviceBuffer<float4> vbo;
  fountain::FountainGpu ref;
  int steps = 0;
};

// The positions after `steps` steps of the student's fountain and of the built-in lean kernel.
void expect_fountain_matches(const std::string& name, const BlockShape& b, unsigned n = 10007,
                             int steps = 700) {
  const CompileResult c = build(shipped(name));
  ASSERT_TRUE(c.ok) << name << ": " << c.error << c.log;
  auto client = client_for(c);
  BuiltInBeside built_in(n);
  LaunchOutcome out;
  for (int k = 0; k < steps; ++k) {
    out = client->launch(built_in.next(b, k + 1 == steps).request, 2.0);
    ASSERT_TRUE(out.ok) << name << ": " << out.fault->describe();
  }
  const std::vector<float4> want = built_in.positions();
  const std::vector<float> positions = out.values<float>("out");
  ASSERT_EQ(positions.size(), 4ull * n);
  int bad = 0;
  for (unsigned i = 0; i < n; ++i) {
    const float w[4] = {want[i].x, want[i].y, want[i].z, want[i].w};
    for (int k = 0; k < 4; ++k)
      bad += std::fabs(positions[4 * i + k] - w[k]) > 1e-4f * (1 + std::fabs(w[k]));
  }
  EXPECT_EQ(bad, 0) << name << " block " << b.x << "x" << b.y << " n " << n << " steps " << steps;
}

// Where a mismatch starts: the student's template, the built-in lean kernel and
// the CPU twin side by side, compared after every step; the first step that
// differs is reported with its first values, so a failure says which side moved.
TEST(UsercodeGpu, FountainKernelFirstDifferingStep) {
  CV_REQUIRE_GPU();
  const unsigned n = 10007;
  const CompileResult c = build(shipped("fountain_kernel"));
  ASSERT_TRUE(c.ok) << c.error << c.log;
  auto client = client_for(c);
  BuiltInBeside built_in(n);
  fountain::FountainCpu cpu(n, fountain::Variant::Lean);
  cpu.reset(built_in.p, BuiltInBeside::kSeed);
  for (int k = 0; k < 40; ++k) {
    const FountainStep q = built_in.next({16, 16, 1}, true);
    const LaunchOutcome out = client->launch(q.request, 2.0);
    ASSERT_TRUE(out.ok) << out.fault->describe();
    cpu.step(q.frame, q.params);
    const std::vector<float4> gpu = built_in.positions();
    const std::vector<float> positions = out.values<float>("out");
    ASSERT_EQ(positions.size(), size_t{4} * n);
    int shown = 0, bad = 0;
    std::ostringstream first;
    for (unsigned i = 0; i < n; ++i) {
      const float g[4] = {gpu[i].x, gpu[i].y, gpu[i].z, gpu[i].w};
      const float h[4] = {cpu.vbo()[i].x, cpu.vbo()[i].y, cpu.vbo()[i].z, cpu.vbo()[i].w};
      for (int m = 0; m < 4; ++m) {
        const float u = positions[4 * i + m];
        if (u == g[m] && g[m] == h[m]) continue;
        if (std::fabs(u - g[m]) <= 1e-4f * (1 + std::fabs(g[m])) &&
            std::fabs(h[m] - g[m]) <= 1e-4f * (1 + std::fabs(g[m])))
          continue;
        ++bad;
        if (shown++ < 6)
          first << "\n  particle " << i << " component " << "xyzw"[m] << ": yours " << u
                << ", built-in GPU " << g[m] << ", CPU twin " << h[m];
      }
    }
    ASSERT_EQ(bad, 0) << "step " << k + 1 << ": " << bad << " values differ" << first.str();
  }
}

// A square grid before any particle respawns, and a ragged grid past the
// first respawn (max_age 600): which of the two a mismatch needs.
TEST(UsercodeGpu, FountainKernelMatchesOnSquareAndRaggedGrids) {
  CV_REQUIRE_GPU();
  for (unsigned n : {65536u, 10007u})
    for (int steps : {120, 700}) expect_fountain_matches("fountain_kernel", {16, 16, 1}, n, steps);
}

TEST(UsercodeGpu, FountainTemplatesMatchTheBuiltInKernel) {
  CV_REQUIRE_GPU();
  for (const char* name : {"fountain_kernel", "fountain_particle", "fountain_kernel_original"})
    for (BlockShape b : {BlockShape{16, 16, 1}, BlockShape{32, 4, 1}, BlockShape{7, 3, 1}})
      expect_fountain_matches(name, b);
}

TEST(UsercodeGpu, Count3KernelsAgainstTheCpu) {
  CV_REQUIRE_GPU();
  const long long n = (1 << 22) + 17;
  const std::vector<int32_t> data = reduce::make_data(n, 1);
  const int64_t want = reduce::cpu_threads(reduce::Op::Count3, data.data(), data.size());
  for (const char* name : {"count3", "count3_atomic", "count3_shared", "count3_racy"}) {
    const CompileResult c = build(shipped(name));
    ASSERT_TRUE(c.ok) << name << c.log;
    auto client = client_for(c);
    for (BlockShape b : {BlockShape{256, 1, 1}, BlockShape{96, 1, 1}, BlockShape{8, 8, 2}}) {
      const LaunchOutcome out = client->launch(lab_step(name, n, 1, b, 2), 2.0);
      ASSERT_TRUE(out.ok) << name << ": " << out.fault->describe();
      if (std::string(name) == "count3_racy")
        EXPECT_LT(first_u64(out, "count"), want) << "the racy count lost no update?";
      else
        EXPECT_EQ(first_u64(out, "count"), want) << name << " block " << b.x << "x" << b.y << "x" << b.z;
    }
  }
}

TEST(UsercodeGpu, PiKernelIsExact) {
  CV_REQUIRE_GPU();
  const CompileResult c = build(shipped("pi"));
  ASSERT_TRUE(c.ok) << c.log;
  auto client = client_for(c);
  const long long n = 10'000'019;
  const uint64_t want = pi_reference_hits(n, 5);
  for (BlockShape b : {BlockShape{256, 1, 1}, BlockShape{33, 1, 1}, BlockShape{1024, 1, 1}}) {
    const LaunchOutcome out = client->launch(lab_step("pi", n, 5, b), 2.0);
    ASSERT_TRUE(out.ok) << out.fault->describe();
    EXPECT_EQ(static_cast<uint64_t>(first_u64(out, "hits")), want);
  }
}

// A broken fountain kernel: the fault comes back named, the runner is gone,
// and a fresh one runs the good template.
void expect_fault(const std::string& body, const std::vector<std::string>& names, double limit_s,
                  bool checked = false, int line = 0) {
  const std::string src =
      "// template: fountain_kernel\n"
      "extern \"C\" __global__ void fountain_step(cv::Span<const float4> in, cv::Span<float4> out,\n"
      "    cv::Span<float> vy, cv::Grid g, cv::Frame f, cv::Params p, cv::Ids ids) {\n"
      "  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x + (blockIdx.y * blockDim.y + threadIdx.y) * g.width;\n" +
      body + "\n}\n";
  const CompileResult c = build(src, checked);
  ASSERT_TRUE(c.ok) << c.log;
  auto client = client_for(c);
  const LaunchRequest q = fountain_step(65536, {16, 16, 1}, true, 1, {}, {}, false);
  const auto t0 = std::chrono::steady_clock::now();
  const LaunchOutcome out = client->launch(q, limit_s);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_FALSE(out.ok) << body;
  const KernelFault& f = *out.fault;
  bool named = false;
  for (const std::string& n : names) named = named || f.error_name == n;
  EXPECT_TRUE(named) << f.describe();
  EXPECT_EQ(f.kernel, "fountain_step");
  EXPECT_EQ(f.block, (BlockShape{16, 16, 1}));
  EXPECT_LT(s, limit_s + 1.0) << "reported after " << s << " s";
  if (checked) {
    ASSERT_TRUE(f.out_of_range) << f.describe();
    EXPECT_EQ(f.out_of_range->line, line);
    EXPECT_GE(f.out_of_range->index, 65536);
    EXPECT_EQ(f.out_of_range->size, 65536);
    EXPECT_TRUE(client->running()) << "a checked fault leaves the context usable";
  } else {
    EXPECT_FALSE(client->running());
  }
  // The good template in a fresh runner.
  ASSERT_TRUE(client->load(build(shipped("fountain_kernel")), 2.0).ok);
  EXPECT_TRUE(client->launch(q, 2.0).ok);
}

TEST(UsercodeGpu, OutOfBoundsWriteEndsOnlyTheRunner) {
  CV_REQUIRE_GPU();
  expect_fault("  out.data[i + (1u << 30)] = make_float4(1, 2, 3, 4);",
               {"cudaErrorIllegalAddress", "cudaErrorLaunchFailure"}, 2.0);
}

TEST(UsercodeGpu, TrapEndsOnlyTheRunner) {
  CV_REQUIRE_GPU();
  expect_fault("  if (i == 77) __trap();", {"cudaErrorLaunchFailure", "cudaErrorIllegalInstruction"}, 2.0);
}

TEST(UsercodeGpu, MisalignedAccessEndsOnlyTheRunner) {
  CV_REQUIRE_GPU();
  expect_fault("  *reinterpret_cast<float4*>(reinterpret_cast<char*>(out.data) + 4) = make_float4(1, 2, 3, 4);",
               {"cudaErrorMisalignedAddress"}, 2.0);
}

TEST(UsercodeGpu, EndlessLoopIsStoppedAtTheTimeLimit) {
  CV_REQUIRE_GPU();
  // clock64() is a volatile read the compiler cannot drop (a volatile local in a loop was optimised away).
  expect_fault("  while (clock64() >= 0) {}", {"time-out", "cudaErrorLaunchTimeout"}, 0.5);
}

TEST(UsercodeGpu, CheckedModeNamesIndexThreadBlockAndLine) {
  CV_REQUIRE_GPU();
  // Line 5 of the file: the body's first line.
  expect_fault("  if (i < g.count) out.at(i + g.count) = make_float4(0, 0, 0, 0);", {"out of range"}, 2.0,
               true, 5);
}

TEST(UsercodeGpu, BlockTheKernelCannotLaunchIsRefused) {
  CV_REQUIRE_GPU();
  const CompileResult c = build(
      "// template: count3\n"
      "extern \"C\" __global__ void __launch_bounds__(64) count3(cv::Span<const int> data,\n"
      "                                                         cv::Span<unsigned long long> count) {}\n");
  ASSERT_TRUE(c.ok) << c.log;
  auto client = client_for(c);
  const LaunchOutcome out = client->launch(lab_step("count3", 1000, 1, {256, 1, 1}), 2.0);
  ASSERT_FALSE(out.ok);
  EXPECT_NE(out.fault->explanation.find("refused"), std::string::npos) << out.fault->describe();
  EXPECT_TRUE(client->running()) << "a refused launch leaves the runner usable";
  EXPECT_TRUE(client->launch(lab_step("count3", 1000, 1, {64, 1, 1}), 2.0).ok);
  const OccupancyReply occ = client->occupancy({64, 1, 1}, 2.0);
  EXPECT_TRUE(occ.ok) << occ.error;
  EXPECT_GT(occ.blocks_per_sm, 0);
}

// The app's exported vertex memory (cuMemCreate + POSIX fd), written by the runner.
TEST(UsercodeGpu, RunnerWritesTheAppsExportedBuffer) {
  CV_REQUIRE_GPU();
  CudaVmmApi api;
  try {
    api = CudaVmmApi::load();
  } catch (const std::exception& e) {
    GTEST_SKIP() << e.what();
  }
  constexpr unsigned n = 65536;
  std::unique_ptr<CudaExportableMemory> a, b;
  try {
    a = std::make_unique<CudaExportableMemory>(api, device_info().ordinal, n * sizeof(float4));
    b = std::make_unique<CudaExportableMemory>(api, device_info().ordinal, n * sizeof(float4));
  } catch (const std::exception& e) {
    GTEST_SKIP() << "no exportable memory here: " << e.what();
  }
  const int fa = a->export_fd(), fb = b->export_fd();
  auto client = client_for(build(shipped("fountain_kernel")));
  // The app's buffer holds the particles (the scene's start); the runner steps them in place.
  const fountain::Params p;
  const fountain::InitialState s = fountain::initial_state(fountain::make_grid(n), p, 1);
  CV_CUDA(cudaMemcpy(a->get(), s.positions.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
  Workload w;
  w.n = n;
  w.block = {16, 16, 1};
  w.reset = true;
  w.shared["in"] = SharedBuffer{SharedBuffer::Kind::CudaVmm, 1, fa, a->size()};
  w.shared["out"] = SharedBuffer{SharedBuffer::Kind::CudaVmm, 2, fb, b->size()};
  const LaunchOutcome out = client->launch(by_rules("fountain_kernel", w), 2.0);
  close(fa);
  close(fb);
  ASSERT_TRUE(out.ok) << out.fault->describe();
  EXPECT_TRUE(out.read_back.empty()) << "nothing travels back for a shared buffer";
  std::vector<float4> got(n);
  CV_CUDA(cudaMemcpy(got.data(), b->get(), n * sizeof(float4), cudaMemcpyDeviceToHost));
  int aged = 0;
  for (unsigned i = 0; i < n; ++i) {
    const float age = s.positions[i].w;
    aged += got[i].w == (age >= p.max_age ? 1.f : age + 1.f);
  }
  EXPECT_EQ(aged, static_cast<int>(n)) << "every particle one step older (or respawned) in the app's buffer";
}

}  // namespace
}  // namespace cv::usercode
