// The execution model with known answers: barriers, warp operations with the
// GPU's semantics, atomics on shared and global memory, extern __shared__,
// and the errors that replace a hang.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <numeric>

#include "emu_test_util.h"
#include "usercode/emu/warp_ops.h"

namespace cv::emu::test {
namespace {

// Line of the first source line containing `marker` (1-based).
int line_of(const std::string& src, const std::string& marker) {
  const size_t at = src.find(marker);
  return at == std::string::npos ? 0 : 1 + static_cast<int>(std::count(src.begin(), src.begin() + at, '\n'));
}

Report run1(const Built& b, usercode::LaunchShape s, std::vector<unsigned>& out, Options opt = {}) {
  SpanArg<unsigned> o{out.data(), out.size()};
  void* params[] = {&o};
  return run(b.kernel, s, params, {view(out, "out")}, opt);
}

TEST(EmuModel, BarrierInsideAnIfIsNamedNotAHang) {
  const std::string src =
      "extern \"C\" __global__ void k(cv::Span<unsigned> out) {\n"
      "  if (threadIdx.x < 16) {\n"
      "    __syncthreads();  // only half the block\n"
      "  }\n"
      "  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;\n"
      "}\n";
  Built b = build_kernel(src, "k");
  ASSERT_TRUE(b.module);
  std::vector<unsigned> out(4 * 32);
  const Report r = run1(b, shape(4, 32), out);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error_kind, "barrier");
  EXPECT_EQ(r.error_line, 3);
  EXPECT_NE(r.error.find("__syncthreads() at line 3 reached by 16 of 32 threads of block (0,0,0)"), std::string::npos)
      << r.error;
}

TEST(EmuModel, BarrierOrdersSharedMemoryAcrossWarps) {
  // Each thread writes its slot, then reads its mirror's: right only with the barrier.
  const std::string src =
      "extern \"C\" __global__ void k(cv::Span<unsigned> out) {\n"
      "  __shared__ unsigned s[256];\n"
      "  s[threadIdx.x] = threadIdx.x * 3 + blockIdx.x;\n"
      "  __syncthreads();\n"
      "  out[blockIdx.x * blockDim.x + threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];\n"
      "}\n";
  Built b = build_kernel(src, "k");
  ASSERT_TRUE(b.module);
  std::vector<unsigned> out(8 * 256);
  ASSERT_TRUE(run1(b, shape(8, 256), out).ok);
  for (unsigned blk = 0; blk < 8; ++blk)
    for (unsigned t = 0; t < 256; ++t) ASSERT_EQ(out[blk * 256 + t], (255 - t) * 3 + blk);
}

TEST(EmuModel, ShufflesGiveTheGpuSemantics) {
  const std::string src =
      "extern \"C\" __global__ void k(cv::Span<unsigned> out) {\n"
      "  const unsigned t = threadIdx.x, lane = t % 32, base = blockIdx.x * blockDim.x * 6 + t * 6;\n"
      "  unsigned v = t * 7 + 1, sum = v;\n"
      "  for (int d = 16; d > 0; d /= 2) sum += __shfl_down_sync(0xffffffffu, sum, d);\n"
      "  out[base + 0] = sum;                                          // lane 0: the warp's sum\n"
      "  unsigned all = v;\n"
      "  for (int m = 1; m < 32; m *= 2) all += __shfl_xor_sync(0xffffffffu, all, m);\n"
      "  out[base + 1] = all;                                          // every lane: the sum\n"
      "  unsigned scan = v;\n"
      "  for (int d = 1; d < 32; d *= 2) { unsigned u = __shfl_up_sync(0xffffffffu, scan, d); if (lane >= d) scan += u; }\n"
      "  out[base + 2] = scan;                                         // inclusive prefix sum\n"
      "  out[base + 3] = __shfl_sync(0xffffffffu, v, 3, 16);            // lane 3 of each half\n"
      "  out[base + 4] = __popc(__ballot_sync(0xffffffffu, v % 3 == 0));\n"
      "  out[base + 5] = __any_sync(0xffffffffu, lane == 5) * 2 + __all_sync(0xffffffffu, lane < 31);\n"
      "}\n";
  Built b = build_kernel(src, "k");
  ASSERT_TRUE(b.module);
  const unsigned T = 64, G = 3;
  for (const bool fibers : {false, true}) {  // the fast path (when libclang is there) and the fibers
    SCOPED_TRACE(fibers ? "fibers" : "fast path");
    std::vector<unsigned> out(G * T * 6);
    Options o;
    o.force_fibers = fibers;
    const Report r = run1(b, shape(G, T), out, o);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.fibers, fibers || !b.build.fission.why.empty()) << r.fission_note;
    for (unsigned blk = 0; blk < G; ++blk)
      for (unsigned t = 0; t < T; ++t) {
        const unsigned lane = t % 32, w0 = t - lane, base = blk * T * 6 + t * 6;
        auto v = [&](unsigned tt) { return tt * 7 + 1; };
        unsigned warp_sum = 0, prefix = 0, multiples = 0;
        for (unsigned l = 0; l < 32; ++l) warp_sum += v(w0 + l), multiples += v(w0 + l) % 3 == 0;
        for (unsigned l = 0; l <= lane; ++l) prefix += v(w0 + l);
        if (lane == 0) EXPECT_EQ(out[base + 0], warp_sum);
        EXPECT_EQ(out[base + 1], warp_sum) << t;
        EXPECT_EQ(out[base + 2], prefix) << t;
        EXPECT_EQ(out[base + 3], v(w0 + (lane & 16) + 3)) << t;
        EXPECT_EQ(out[base + 4], multiples) << t;
        EXPECT_EQ(out[base + 5], 2u) << t;  // any: yes; all: lane 31 says no
      }
  }
}

TEST(EmuModel, ShuffleMaskNamingAbsentLanesIsNamed) {
  const std::string src =
      "extern \"C\" __global__ void k(cv::Span<unsigned> out) {\n"
      "  out[threadIdx.x] = __shfl_down_sync(0xffffffffu, threadIdx.x, 1);\n"
      "}\n";
  Built b = build_kernel(src, "k");
  ASSERT_TRUE(b.module);
  std::vector<unsigned> out(48);
  const Report r = run1(b, shape(1, 48), out);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error_kind, "warp");
  EXPECT_NE(r.error.find("names lanes 16-31, which are not there"), std::string::npos) << r.error;
}

TEST(EmuModel, ShuffleWithExitedLanesIsNamed) {
  const std::string src =
      "extern \"C\" __global__ void k(cv::Span<unsigned> out) {\n"
      "  if (threadIdx.x >= 20) return;\n"
      "  out[threadIdx.x] = __shfl_xor_sync(0xffffffffu, threadIdx.x, 1);\n"
      "}\n";
  Built b = build_kernel(src, "k");
  ASSERT_TRUE(b.module);
  std::vector<unsigned> out(32);
  const Report r = run1(b, shape(1, 32), out);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error_line, 3);
  EXPECT_NE(r.error.find("lanes 20-31, which finished without reaching it"), std::string::npos) << r.error;
}

TEST(EmuModel, PartialMaskAndActiveMask) {
  const std::string src =
      "extern \"C\" __global__ void k(cv::Span<unsigned> out) {\n"
      "  const unsigned lane = threadIdx.x % 32;\n"
      "  if (lane < 10) out[threadIdx.x] = __activemask();\n"
      "  else out[threadIdx.x] = __shfl_sync(0xfffffc00u, lane, 12);\n"
      "}\n";
  Built b = build_kernel(src, "k");
  ASSERT_TRUE(b.module);
  std::vector<unsigned> out(64);
  const Report r = run1(b, shape(1, 64), out);
  ASSERT_TRUE(r.ok) << r.error;
  for (unsigned t = 0; t < 64; ++t) EXPECT_EQ(out[t], t % 32 < 10 ? 0x3ffu : 12u) << t;
}

TEST(EmuModel, AtomicsOnSharedAndGlobalMemory) {
  const std::string src =
      "extern \"C\" __global__ void k(cv::Span<int> gi, cv::Span<unsigned long long> gu, cv::Span<float> gf) {\n"
      "  __shared__ int s_sum, s_min, s_max;\n"
      "  __shared__ unsigned s_cnt;\n"
      "  __shared__ float s_f;\n"
      "  const int t = threadIdx.x, v = (t * 37 + blockIdx.x * 11) % 101 - 50;\n"
      "  if (t == 0) { s_sum = 0; s_min = 1 << 30; s_max = -(1 << 30); s_cnt = 0; s_f = 0.f; }\n"
      "  __syncthreads();\n"
      "  atomicAdd(&s_sum, v); atomicMin(&s_min, v); atomicMax(&s_max, v); atomicInc(&s_cnt, 1000000u);\n"
      "  atomicAdd(&s_f, 0.5f);\n"
      "  __syncthreads();\n"
      "  if (t == 0) {\n"
      "    atomicAdd(&gi[0], s_sum); atomicMin(&gi[1], s_min); atomicMax(&gi[2], s_max);\n"
      "    atomicAdd(&gu[0], 1ull * s_cnt); atomicAdd(&gf[0], s_f);\n"
      "  }\n"
      "  atomicSub(&gi[3], 1); atomicExch(&gi[4], 7);\n"
      "  int old = gi[5], assumed;\n"
      "  do { assumed = old; old = atomicCAS(&gi[5], assumed, assumed + 2); } while (old != assumed);\n"
      "  atomicMax(&gu[1], 1ull * (blockIdx.x * blockDim.x + t)); atomicOr(&gu[2], 1ull << (t % 64));\n"
      "}\n";
  Built b = build_kernel(src, "k");
  ASSERT_TRUE(b.module);
  const unsigned G = 40, T = 200;
  std::vector<int> gi = {0, 1 << 30, -(1 << 30), 0, 0, 0};
  std::vector<unsigned long long> gu(3, 0);
  std::vector<float> gf(1, 0.f);
  SpanArg<int> a{gi.data(), gi.size()};
  SpanArg<unsigned long long> u{gu.data(), gu.size()};
  SpanArg<float> f{gf.data(), gf.size()};
  void* params[] = {&a, &u, &f};
  const Report r = run(b.kernel, shape(G, T), params, {view(gi, "gi"), view(gu, "gu"), view(gf, "gf")}, {});
  ASSERT_TRUE(r.ok) << r.error;
  long long sum = 0;
  int mn = 1 << 30, mx = -(1 << 30);
  for (unsigned blk = 0; blk < G; ++blk)
    for (unsigned t = 0; t < T; ++t) {
      const int v = static_cast<int>((t * 37 + blk * 11) % 101) - 50;
      sum += v, mn = std::min(mn, v), mx = std::max(mx, v);
    }
  EXPECT_EQ(gi[0], sum);
  EXPECT_EQ(gi[1], mn);
  EXPECT_EQ(gi[2], mx);
  EXPECT_EQ(gi[3], -static_cast<int>(G * T));
  EXPECT_EQ(gi[4], 7);
  EXPECT_EQ(gi[5], static_cast<int>(2 * G * T));
  EXPECT_EQ(gu[0], G * T);
  EXPECT_EQ(gu[1], G * T - 1);
  EXPECT_EQ(gu[2], ~0ull);
  EXPECT_FLOAT_EQ(gf[0], 0.5f * G * T);
}

TEST(EmuModel, ExternSharedGetsTheLaunchsDynamicSize) {
  const std::string src =
      "extern \"C\" __global__ void k(cv::Span<unsigned> out) {\n"
      "  extern __shared__ unsigned tile[];\n"
      "  const unsigned t = threadIdx.x, n = blockDim.x;\n"
      "  tile[n - 1 - t] = blockIdx.x * n + t;\n"
      "  __syncthreads();\n"
      "  out[blockIdx.x * n + t] = tile[t];\n"
      "}\n";
  Built b = build_kernel(src, "k");
  ASSERT_TRUE(b.module);
  std::vector<unsigned> out(16 * 512);
  ASSERT_TRUE(run1(b, shape(16, 512, 1, 1, 512 * 4), out).ok);
  for (unsigned blk = 0; blk < 16; ++blk)
    for (unsigned t = 0; t < 512; ++t) ASSERT_EQ(out[blk * 512 + t], blk * 512 + 511 - t);
  EXPECT_THROW(run1(b, shape(1, 32, 1, 1, 1u << 20), out), std::invalid_argument);
}

TEST(EmuModel, TrapAssertAndPrintf) {
  const std::string src =
      "extern \"C\" __global__ void k(cv::Span<unsigned> out) {\n"
      "  if (threadIdx.x == 0) printf(\"block %u says hi\\n\", blockIdx.x);\n"
      "  assert(blockIdx.x != 2 || threadIdx.x != 5);\n"
      "  out[threadIdx.x] = 1;\n"
      "}\n";
  Built b = build_kernel(src, "k");
  ASSERT_TRUE(b.module);
  std::vector<unsigned> out(32);
  const Report r = run1(b, shape(1, 32), out);
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.printf_lines.size(), 1u);
  EXPECT_EQ(r.printf_lines[0], "block 0 says hi");
  const Report bad = run1(b, shape(3, 32), out);
  EXPECT_FALSE(bad.ok);
  EXPECT_EQ(bad.error_kind, "trap");
  EXPECT_EQ(bad.error_line, 3);
  EXPECT_NE(bad.error.find("thread (5,0,0) of block (2,0,0)"), std::string::npos) << bad.error;
}

TEST(EmuModel, GpuOnlyFeaturesAreErrorsAtTheStudentsLine) {
  const std::string src =
      "extern \"C\" __global__ void k(cv::Span<unsigned> out) {\n"
      "  unsigned id;\n"
      "  asm volatile(\"mov.u32 %0, %%smid;\" : \"=r\"(id));\n"
      "  out[0] = id;\n"
      "}\n";
  BuildRequest q;
  q.source = src;
  q.entries = {"k"};
  q.headers = {{"cudaviz.h", emu_test::prelude::cudaviz_h}};
  q.includes = {"cudaviz.h"};
  const BuildResult r = build_module(q);
  EXPECT_FALSE(r.ok);
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_EQ(r.diagnostics[0].line, 3);
  EXPECT_NE(r.diagnostics[0].message.find("only on an NVIDIA GPU"), std::string::npos);
  // A texture fetch: the compiler's error at the call, with the sentence.
  q.source = "extern \"C\" __global__ void k(cv::Span<unsigned> out) {\n  out[0] = tex1Dfetch(0, 1);\n}\n";
  const BuildResult t = build_module(q);
  EXPECT_FALSE(t.ok);
  bool named = false;
  for (const BuildDiagnostic& d : t.diagnostics)
    named = named || (d.line == 2 && d.message.find("only on an NVIDIA GPU") != std::string::npos);
  EXPECT_TRUE(named) << t.log;
}

// A compiler that refuses -march=native (GCC on Arm reads /proc/cpuinfo for
// it, which a confined compile may not see): the module is built without it.
TEST(EmuModel, ACompilerThatRefusesMarchNativeBuildsWithoutIt) {
  const char* real = access("/usr/bin/c++", X_OK) == 0 ? "/usr/bin/c++" : nullptr;
  if (!real) GTEST_SKIP() << "no /usr/bin/c++";
  std::string dir = ::testing::TempDir() + "cv_march_XXXXXX";
  ASSERT_NE(mkdtemp(dir.data()), nullptr);
  const std::string cxx = dir + "/cxx";
  std::ofstream(cxx) << "#!/bin/sh\nfor a in \"$@\"; do\n  if [ \"$a\" = -march=native ]; then\n"
                        "    echo \"cc1: error: unknown value 'native' for '-march'\" >&2; exit 1\n  fi\ndone\n"
                        "exec " << real << " \"$@\"\n";
  ASSERT_EQ(chmod(cxx.c_str(), 0755), 0);
  BuildRequest q;
  q.cxx = cxx;
  q.source = "extern \"C\" __global__ void k(cv::Span<unsigned> out) {\n  out[threadIdx.x] = threadIdx.x;\n}\n";
  q.entries = {"k"};
  q.headers = {{"cudaviz.h", emu_test::prelude::cudaviz_h}};
  q.includes = {"cudaviz.h"};
  const BuildResult r = build_module(q);
  EXPECT_TRUE(r.ok) << r.first_error() << r.error << r.log;
  EXPECT_EQ(r.log.find("native"), std::string::npos) << r.log;  // the retry's log: no refusal left
  std::remove(cxx.c_str());
  rmdir(dir.c_str());
}

TEST(EmuWarpOps, ShuffleSourcesFollowCuda) {
  EXPECT_EQ(shuffle_source(cv_emu::kShfl, 5, 3, 32), 3u);
  EXPECT_EQ(shuffle_source(cv_emu::kShfl, 20, 3, 16), 19u);
  EXPECT_EQ(shuffle_source(cv_emu::kShflUp, 2, 4, 32), 2u);   // below the segment: own value
  EXPECT_EQ(shuffle_source(cv_emu::kShflUp, 9, 4, 32), 5u);
  EXPECT_EQ(shuffle_source(cv_emu::kShflDown, 30, 4, 32), 30u);
  EXPECT_EQ(shuffle_source(cv_emu::kShflDown, 3, 4, 8), 7u);
  EXPECT_EQ(shuffle_source(cv_emu::kShflDown, 5, 4, 8), 5u);
  EXPECT_EQ(shuffle_source(cv_emu::kShflXor, 6, 1, 32), 7u);
  EXPECT_EQ(shuffle_source(cv_emu::kShflXor, 3, 8, 8), 3u);    // a later segment: own value
}

}  // namespace
}  // namespace cv::emu::test
