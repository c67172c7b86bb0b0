// Accesses checked ahead (fission_ahead.h, docs/emulator.md): a region's
// accesses at an index every thread shares, tested once before its loop over
// threads; a thread's loop over an index, its range tested once before the
// loop. Either way the fibers' answers, and an access out of range still
// named with its index and line (the copy as written runs then).
#include "emu_test_util.h"

#include <algorithm>
#include <cstring>

namespace cv::emu::test {
namespace {

// cv_fault of a checked build (app/usercode/prelude/cudaviz.h), as the runner reads it.
struct Fault {
  int hit, line;
  long long index, size;
  unsigned thread[3], block[3];
  unsigned long long pc;
};
static_assert(sizeof(Fault) == kFaultRecordBytes, "the prelude's FaultRecord");

Fault fault_of(const Built& b) {
  Fault f{};
  if (b.module && b.module->fault_record()) std::memcpy(&f, b.module->fault_record(), sizeof f);
  return f;
}

// k(in, out, n) on grid x block threads; the fast path or the fibers.
std::vector<float> run_k(const Built& b, unsigned grid, unsigned block, std::vector<float> in, size_t out_words,
                         unsigned n, bool fibers, std::string* path = nullptr) {
  std::vector<float> out(out_words, 0.f);
  SpanArg<float> a{in.data(), in.size()}, o{out.data(), out.size()};
  void* params[] = {&a, &o, &n};
  Options opt;
  opt.force_fibers = fibers;
  const Report r = run(b.kernel, shape(grid, block), params, {view(in, "in", false), view(out, "out")}, opt);
  EXPECT_TRUE(r.ok) << r.error;
  if (path) *path = r.path;
  return out;
}

// A checked build (CV_CHECKED: the guard's CPU side), the only one that tests ahead.
Built checked_build(const std::string& src) { return build_kernel(src, "k", "", false, false, true); }

// k(in, out, n) with `loop` summing into s for thread t, after `m_declaration` (of m).
std::string loop_kernel(const char* m_declaration, const char* loop) {
  return std::string(R"(
extern "C" __global__ void k(cv::Span<const float> in, cv::Span<float> out, unsigned n) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  )") + m_declaration + R"(
  float s = 0.f;
  )" + loop + R"(
  if (t < out.size) out[t] = s;
}
)";
}

std::vector<float> ramp(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = 0.25f * static_cast<float>(i % 97) + 1.f;
  return v;
}

// A mirror read one past the end (in[size - i]), run checked over 128 floats in
// two blocks of 64: the fault is thread 0 of block 0 reading index 128 of 128,
// as the fibers would name it.
void expect_thread0_reads_one_past(const Built& w) {
  ASSERT_TRUE(w.module);
  run_k(w, 2, 64, ramp(128), 128, 128, false);
  const Fault f = fault_of(w);
  EXPECT_EQ(f.hit, 1);
  EXPECT_EQ(f.index, 128);
  EXPECT_EQ(f.size, 128);
  EXPECT_EQ(f.thread[0], 0u);
  EXPECT_EQ(f.block[0], 0u);
}

// An all-pairs loop every thread runs with the same bounds, after threads
// past n left: turned inside out, its `in[j]` tested once a step for the
// block, the running threads the block's first.
TEST(EmuAhead, ATurnedLoopsSharedIndexIsTestedOnceForTheBlock) {
  const char* src = R"(
extern "C" __global__ void k(cv::Span<const float> in, cv::Span<float> out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float sum = 0.f;
  for (unsigned j = 0; j < n; ++j) sum += in[j] * in[i];
  out[i] = sum;
}
)";
  const Built b = checked_build(src);
  ASSERT_TRUE(b.module);
  EXPECT_NE(b.build.fission.code.find("cv_fis_in(in, j)"), std::string::npos) << b.build.fission.code;
  EXPECT_NE(b.build.fission.code.find("cv_live"), std::string::npos);
  for (unsigned n : {1u, 63u, 64u, 200u}) {  // a full block, and a last block some threads left
    SCOPED_TRACE("n = " + std::to_string(n));
    std::string path;
    const std::vector<float> fast = run_k(b, (n + 63) / 64, 64, ramp(n), n, n, false, &path);
    EXPECT_EQ(path, "fission");
    EXPECT_EQ(fast, run_k(b, (n + 63) / 64, 64, ramp(n), n, n, true));
    EXPECT_EQ(fault_of(b).hit, 0);
  }
}

// The same loop one step too far: the test before the loop fails at j = n,
// the loop runs as written and its check names the index, size and line.
TEST(EmuAhead, ASharedIndexOutOfRangeIsStillNamedAtItsLine) {
  const char* src = R"(
extern "C" __global__ void k(cv::Span<const float> in, cv::Span<float> out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float sum = 0.f;
  for (unsigned j = 0; j <= n; ++j)
    sum += in[j];
  out[i] = sum;
}
)";
  const Built b = checked_build(src);
  ASSERT_TRUE(b.module);
  ASSERT_NE(b.build.fission.code.find("cv_fis_in(in, j)"), std::string::npos) << b.build.fission.code;
  std::string path;
  run_k(b, 2, 64, ramp(100), 100, 100, false, &path);
  EXPECT_EQ(path, "fission");
  const Fault f = fault_of(b);
  EXPECT_EQ(f.hit, 1);
  EXPECT_EQ(f.index, 100);
  EXPECT_EQ(f.size, 100);
  EXPECT_NE(f.pc, 0u);  // the access's own code: the runner reads its line there (pc_lines.h)
}

// Indices each thread computes from its coordinates (a reversal): one pass
// over the block's threads tests them before the region; the fibers' answers
// where all are in range (and a block whose last threads are past the end
// runs as written), and an off-by-one named with its index.
TEST(EmuAhead, EachThreadsIndicesAreTestedInOnePassBeforeTheRegion) {
  const char* right = R"(
extern "C" __global__ void k(cv::Span<const float> in, cv::Span<float> out, unsigned n) {
  const unsigned long long i = cv::global_index();
  if (i < in.size) out[i] = in[in.size - i - 1];
}
)";
  const Built b = checked_build(right);
  ASSERT_TRUE(b.module);
  EXPECT_NE(b.build.fission.code.find("cv_bad_"), std::string::npos) << b.build.fission.code;
  for (unsigned n : {64u, 100u, 256u}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const std::vector<float> fast = run_k(b, (n + 63) / 64, 64, ramp(n), n, n, false);
    EXPECT_EQ(fast, run_k(b, (n + 63) / 64, 64, ramp(n), n, n, true));
    EXPECT_EQ(fast[0], ramp(n)[n - 1]);
    EXPECT_EQ(fault_of(b).hit, 0);
  }
  const char* off_by_one = R"(
extern "C" __global__ void k(cv::Span<const float> in, cv::Span<float> out, unsigned n) {
  const unsigned long long i = cv::global_index();
  if (i < in.size) out[i] = in[in.size - i];
}
)";
  ASSERT_NO_FATAL_FAILURE(expect_thread0_reads_one_past(checked_build(off_by_one)));
}

// A thread's own loop over an index: P[i], P[i + c], P[c + i], P[i - c]
// with `<` or `<=`, its range tested once before the loop, against the fibers
// on sizes where every access is in range.
TEST(EmuAhead, AThreadsLoopOverAnIndexIsTestedOnceBeforeIt) {
  const char* loops[] = {
      "for (long long k = t + 1; k < m; ++k) s += in[k];",
      "for (unsigned k = t; k <= m - 1; k++) s += in[k] * 2.f;",
      "for (int k = 1; k < static_cast<int>(m); k += 1) s += in[k - 1] + in[k];",
      "for (unsigned long long k = 0; m - 1 > k; ++k) s += in[1 + k] - in[k + 1] + in[k];",
  };
  for (const char* loop : loops) {
    SCOPED_TRACE(loop);
    const Built b = checked_build(loop_kernel("const unsigned m = n - t % 3;", loop));
    ASSERT_TRUE(b.module);
    EXPECT_NE(b.build.fission.code.find("cv_fis_span_range("), std::string::npos) << b.build.fission.code;
    for (unsigned n : {3u, 50u, 130u}) {
      SCOPED_TRACE("n = " + std::to_string(n));
      EXPECT_EQ(run_k(b, 2, 64, ramp(n), 128, n, false), run_k(b, 2, 64, ramp(n), 128, n, true));
      EXPECT_EQ(fault_of(b).hit, 0);
    }
  }
}

// The bound past the span: the loop as written runs and names the first bad index.
// (A start that differs between threads: a loop every thread runs alike is turned instead.)
TEST(EmuAhead, AThreadsLoopPastItsSpanIsStillNamed) {
  const char* src = R"(
extern "C" __global__ void k(cv::Span<const float> in, cv::Span<float> out, unsigned n) {
  float s = 0.f;
  for (unsigned k = 2 + threadIdx.x; k < n + 5; ++k)
    s += in[k - 2];
  out[0] = s;
}
)";
  const Built b = checked_build(src);
  ASSERT_TRUE(b.module);
  ASSERT_NE(b.build.fission.code.find("cv_fis_span_range("), std::string::npos) << b.build.fission.code;
  run_k(b, 1, 1, ramp(40), 1, 40, false);
  const Fault f = fault_of(b);
  EXPECT_EQ(f.hit, 1);
  EXPECT_EQ(f.index, 40);
  EXPECT_NE(f.pc, 0u);
}

// A thread's loops whose range the test before them could not know: the
// index or the bound changed in the body, a bound that calls or reads the
// index, an index not i + c, a start below zero. Each runs as written (no
// range test, or one that fails), with the fibers' answers.
TEST(EmuAhead, LoopsWhoseRangeMayChangeAreLeftAsWritten) {
  struct Case {
    const char* loop;
    bool versioned;
  };
  const Case cases[] = {
      {"for (unsigned k = t % 2; k < m; ++k) { s += in[k]; if (s > 40.f) k += 1; }", false},
      {"for (unsigned k = t % 2; k < m; ++k) { s += in[k]; if (k == 3) m -= 1; }", false},
      {"for (unsigned k = t % 2; k < m - k; ++k) s += in[k];", false},
      {"for (unsigned k = t % 2; k < static_cast<unsigned>(sqrtf(m)); ++k) s += in[k];", false},
      {"for (unsigned k = t % 2; k < m; ++k) s += in[2 * k / 3];", false},
      {"for (int k = static_cast<int>(t % 2) - 1; k < static_cast<int>(m) - 1; ++k) s += in[k + 1];", true},  // tested, fails for even t
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.loop);
    const Built b = checked_build(loop_kernel("unsigned m = n;", c.loop));
    ASSERT_TRUE(b.module);
    EXPECT_EQ(b.build.fission.code.find("cv_fis_span_range(") != std::string::npos, c.versioned)
        << b.build.fission.code;
    for (unsigned n : {10u, 100u}) {
      EXPECT_EQ(run_k(b, 1, 32, ramp(n), 32, n, false), run_k(b, 1, 32, ramp(n), 32, n, true));
      EXPECT_EQ(fault_of(b).hit, 0);
    }
  }
}

// A deferred atomic inside a thread's loop at one address every thread
// shares (checked ahead): the fast copy takes the address once before its
// loop over threads and the loop only sums; the totals are the fibers' and
// the host's, over several blocks and a last block some threads skip.
TEST(EmuAhead, AnAtomicAtOneAddressInAThreadsLoopIsTakenOnceAndSummed) {
  const char* src = R"(
extern "C" __global__ void k(cv::Span<const float> in, cv::Span<unsigned long long> count, unsigned n) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  for (unsigned j = t; j < n; ++j)
    if (in[j] > 12.f) atomicAdd(&count[0], 1ull);
  for (unsigned j = 0; j < t % 4; ++j) atomicAdd(&count[1], 2ull);
}
)";
  const Built b = checked_build(src);
  ASSERT_TRUE(b.module);
  EXPECT_NE(b.build.fission.code.find("cv_fis_defer_put("), std::string::npos) << b.build.fission.code;
  EXPECT_NE(b.build.fission.code.find("auto* const cv_a ="), std::string::npos);
  for (unsigned n : {1u, 100u, 300u}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    std::vector<float> in = ramp(n);
    auto launch = [&](bool fibers) {
      std::vector<unsigned long long> count(2, 0);
      SpanArg<float> a{in.data(), in.size()};
      SpanArg<unsigned long long> c{count.data(), count.size()};
      unsigned nn = n;
      void* params[] = {&a, &c, &nn};
      Options opt;
      opt.force_fibers = fibers;
      const Report r = run(b.kernel, shape((n + 63) / 64, 64), params, {view(in, "in", false), view(count, "count")}, opt);
      EXPECT_TRUE(r.ok) << r.error;
      return count;
    };
    const std::vector<unsigned long long> fast = launch(false);
    EXPECT_EQ(fast, launch(true));
    unsigned long long hits = 0, twos = 0;
    const unsigned threads = (n + 63) / 64 * 64;
    for (unsigned t = 0; t < threads; ++t) {
      for (unsigned j = t; j < n; ++j) hits += in[j] > 12.f;
      twos += 2ull * (t % 4);
    }
    EXPECT_EQ(fast[0], hits);
    EXPECT_EQ(fast[1], twos);
    EXPECT_EQ(fault_of(b).hit, 0);
  }
}

// `#pragma unroll` before a loop every thread runs alike: still turned
// inside out (the hint dropped on the CPU), the fibers' answers.
TEST(EmuAhead, APragmaUnrolledLoopIsStillTurned) {
  const char* src = R"(
extern "C" __global__ void k(cv::Span<const float> in, cv::Span<float> out, unsigned n) {
  extern __shared__ float tile[];
  const unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  float sum = 0.f;
  for (unsigned base = 0; base < n; base += blockDim.x) {
    tile[t] = base + t < n ? in[base + t] : 0.f;
    __syncthreads();
#pragma unroll 4
    for (unsigned k = 0; k < blockDim.x; ++k) sum += tile[k] * (i % 5);
    __syncthreads();
  }
  if (i < n) out[i] = sum;
}
)";
  const Built b = checked_build(src);
  ASSERT_TRUE(b.module);
  // Turned: the loop over k holds the loop over the block's threads.
  const std::string& code = b.build.fission.code;
  const size_t k_loop = code.find("for (unsigned k = 0;");
  ASSERT_NE(k_loop, std::string::npos) << code;
  EXPECT_NE(code.find("for (unsigned cv_x", k_loop), std::string::npos) << code;
  EXPECT_EQ(code.find("#pragma unroll"), std::string::npos) << code;
  for (unsigned n : {64u, 100u}) {
    const std::vector<float> fast = run_k(b, (n + 63) / 64, 64, ramp(n), n, n, false);
    EXPECT_EQ(fast, run_k(b, (n + 63) / 64, 64, ramp(n), n, n, true));
  }
}

// A const local computed from a helper the fast path cannot copy (a
// template reads the coordinates from the emulator's context) is computed
// again in each later region that reads it: that region's loop over threads
// must put each thread's coordinates in the context too, or every thread
// computes the last thread's value (c34: count3_guard_unrolled judged wrong
// where libclang did not let the fast path copy cv::global_index).
TEST(EmuAhead, AValueComputedAgainFromTheContextIsEachThreadsOwn) {
  const char* src = R"(
template <class T> __device__ T gid() { return blockIdx.x * blockDim.x + threadIdx.x; }
extern "C" __global__ void k(cv::Span<const float> in, cv::Span<float> out, unsigned n) {
  __shared__ float s[64];
  const unsigned i = gid<unsigned>();
  s[threadIdx.x] = i < n ? in[i] : 0.f;
  __syncthreads();
  float sum = 0.f;
  for (unsigned k = 0; k < 3; ++k)
    if (i + k < n) sum += in[i + k] * s[(threadIdx.x + k) % blockDim.x];
  if (i < n) out[i] = sum + i;
}
)";
  for (const bool checked : {false, true}) {
    const Built b = build_kernel(src, "k", "", false, false, checked);
    ASSERT_TRUE(b.module);
    std::string path;
    const unsigned n = 100;
    const std::vector<float> fast = run_k(b, 2, 64, ramp(n), n, n, false, &path);
    EXPECT_EQ(path, "fission") << b.build.fission.why << (b.build.fission.kernels.empty() ? "" : b.build.fission.kernels[0].why);
    EXPECT_EQ(fast, run_k(b, 2, 64, ramp(n), n, n, true)) << "checked " << checked << "\n" << b.build.fission.code;
  }
}

// A region that is `if (c) S`, c each thread's own value: the pass before it
// tests c too, and in blocks where it holds for every thread S runs without
// the test (GCC does not vectorise a masked backward load). A ragged last
// block and a condition that holds for every other thread take the copy with
// the test; every answer is the fibers'.
TEST(EmuAhead, AnIfThatHoldsForEveryThreadRunsItsBodyAlone) {
  for (const char* cond : {"i < n", "i % 2 == 0"}) {
    SCOPED_TRACE(cond);
    const std::string src = std::string(R"(
extern "C" __global__ void k(cv::Span<const float> in, cv::Span<float> out, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if ()") + cond + R"() out[i] = in[n - 1 - i] * 2.f;
}
)";
    const Built b = checked_build(src);
    ASSERT_TRUE(b.module);
    EXPECT_NE(b.build.fission.code.find("cv_all_0"), std::string::npos) << b.build.fission.code;
    for (unsigned n : {256u, 200u}) {
      const std::vector<float> fast = run_k(b, 4, 64, ramp(n), n, n, false);
      EXPECT_EQ(fast, run_k(b, 4, 64, ramp(n), n, n, true)) << "n " << n;
    }
  }
}

// A grid-stride reversal (reverse.cu's shape): where no thread takes a
// second trip, a pass computes each thread's start, condition and load index;
// when all hold, the copy runs the body without its `if` and the backward load
// unchecked. A partial last block (a condition false) and a grid that does
// not cover the data (second trips) run the other copies; an off-by-one is
// named with its index; a forward access keeps the masked copy (no pass).
TEST(EmuAhead, AOnceLoopsBackwardLoadRunsUncheckedWhereEveryThreadsTripIsInRange) {
  auto kernel = [](const char* body) {
    return std::string(R"(
extern "C" __global__ void k(cv::Span<const float> in, cv::Span<float> out, unsigned n) {
  const unsigned long long m = in.size;
  for (unsigned long long i = cv::global_index(); i < m; i += cv::grid_threads()) )") + body + R"(
}
)";
  };
  const Built b = checked_build(kernel("out[i] = in[m - 1 - i];"));
  ASSERT_TRUE(b.module);
  EXPECT_NE(b.build.fission.code.find("cv_nf_"), std::string::npos) << b.build.fission.code;
  for (unsigned n : {64u, 100u, 128u, 300u}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    std::string path;
    const std::vector<float> fast = run_k(b, 2, 64, ramp(n), n, n, false, &path);
    EXPECT_EQ(path, "fission");
    EXPECT_EQ(fast, run_k(b, 2, 64, ramp(n), n, n, true));
    std::vector<float> reversed = ramp(n);
    std::reverse(reversed.begin(), reversed.end());
    EXPECT_EQ(fast, reversed);
    EXPECT_EQ(fault_of(b).hit, 0);
  }
  ASSERT_NO_FATAL_FAILURE(expect_thread0_reads_one_past(checked_build(kernel("out[i] = in[m - i];"))));  // i = 0 reads in[m]
  const Built forward = checked_build(kernel("out[i] = in[i] + 1.f;"));
  ASSERT_TRUE(forward.module);
  EXPECT_EQ(forward.build.fission.code.find("cv_nf_"), std::string::npos) << forward.build.fission.code;
  EXPECT_EQ(run_k(forward, 2, 64, ramp(100), 100, 100, false), run_k(forward, 2, 64, ramp(100), 100, 100, true));
}

}  // namespace
}  // namespace cv::emu::test
