// Grid-stride loops run once (fission_once.h, docs/emulator.md): where no
// thread of a block takes a second trip the fast path runs such a loop as an
// `if`; otherwise as written. Either way the fibers' answers: every trip count
// from none to many, per thread, and the sum a block adds.
#include "emu_test_util.h"

namespace cv::emu::test {
namespace {

// Runs `k` (out, n) on grid x block threads, fast path or fibers.
std::vector<unsigned> run_k(const Built& b, unsigned grid, unsigned block, unsigned n, size_t words, bool fibers,
                            std::string* path = nullptr) {
  std::vector<unsigned> out(words, 0);
  SpanArg<unsigned> s{out.data(), out.size()};
  void* params[] = {&s, &n};
  Options opt;
  opt.force_fibers = fibers;
  const Report r = run(b.kernel, shape(grid, block), params, {view(out, "out")}, opt);
  EXPECT_TRUE(r.ok) << r.error;
  if (path) *path = r.path;
  return out;
}

TEST(EmuOnceLoops, EveryTripCountGivesTheFibersAnswers) {
  const char* src = R"(
extern "C" __global__ void k(cv::Span<unsigned> out, unsigned n) {
  const unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
  unsigned trips = 0, sum = 0;
  for (unsigned long long i = cv::global_index(); i < n; i += cv::grid_threads()) {
    ++trips;
    sum += static_cast<unsigned>(i) * 3 + 1;
  }
  if (sum) atomicAdd(&out[0], sum);
  out[1 + t] = trips;
}
)";
  const Built b = build_kernel(src, "k");
  ASSERT_TRUE(b.module);
  EXPECT_NE(b.build.fission.code.find("cv_more_"), std::string::npos) << b.build.fission.code;
  // Unsigned bound and step of the block: tested once for it, the pass only where the step is short.
  EXPECT_NE(b.build.fission.code.find("cv_wide_"), std::string::npos) << b.build.fission.code;
  const unsigned grid = 3, block = 64, threads = grid * block;
  // None, some, exactly one each (the block's test alone), one thread twice, many (the pass).
  for (unsigned n : {0u, 100u, threads, threads + 1, 1000u}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    std::string path;
    const std::vector<unsigned> fast = run_k(b, grid, block, n, 1 + threads, false, &path);
    EXPECT_EQ(path, "fission");
    EXPECT_EQ(fast, run_k(b, grid, block, n, 1 + threads, true));
    unsigned sum = 0;
    for (unsigned i = 0; i < n; ++i) sum += i * 3 + 1;
    EXPECT_EQ(fast[0], sum);
    for (unsigned t = 0; t < threads; ++t) ASSERT_EQ(fast[1 + t], n > t ? (n - t + threads - 1) / threads : 0) << t;
  }
}

// A start read from memory, a variable the body changes, a step that is not
// the block's, a break: each runs as written (and still gives the fibers' answers).
TEST(EmuOnceLoops, LoopsThatMayNotBeRunOnceAreLeftAsWritten) {
  const char* loops[] = {
      "for (unsigned i = out[0] + t; i < n; i += nt) mine += i;",
      "for (unsigned i = t; i < n; i += nt) { mine += i; if (mine % 7 == 0) i += 1; }",
      "for (unsigned i = t; i < n; i += mine + 1) mine += i;",
      "for (unsigned i = t; i < n; i += nt) { if (i == 150) break; mine += i; }",
  };
  for (const char* loop : loops) {
    SCOPED_TRACE(loop);
    const std::string src = std::string(R"(
extern "C" __global__ void k(cv::Span<unsigned> out, unsigned n) {
  const unsigned t = threadIdx.x + blockIdx.x * blockDim.x, nt = blockDim.x * gridDim.x;
  unsigned mine = 0;
  )") + loop + R"(
  out[1 + t] = mine;
}
)";
    const Built b = build_kernel(src, "k");
    ASSERT_TRUE(b.module);
    EXPECT_EQ(b.build.fission.code.find("cv_more_"), std::string::npos) << b.build.fission.code;
    for (unsigned n : {100u, 1000u}) EXPECT_EQ(run_k(b, 3, 64, n, 1 + 192, false), run_k(b, 3, 64, n, 1 + 192, true));
  }
}


// A step of more than half the type's range can wrap i below the bound
// (i = t + 3.8e9 steps by 4e9 in 32 bits: down by 294,967,296 a trip, a dozen
// trips): the block's test does not hold and the pass decides, as without it.
// A signed variable (which may start below 0) always takes the pass.
TEST(EmuOnceLoops, AStepThatMayWrapOrASignedVariableKeepsThePass) {
  const char* wraps = R"(
extern "C" __global__ void k(cv::Span<unsigned> out, unsigned n) {
  const unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
  unsigned trips = 0;
  for (unsigned i = t + n; i < 3900000000u; i += 4000000000u) ++trips;
  out[1 + t] = trips;
}
)";
  const Built w = build_kernel(wraps, "k");
  ASSERT_TRUE(w.module);
  EXPECT_NE(w.build.fission.code.find("cv_wide_"), std::string::npos) << w.build.fission.code;
  const std::vector<unsigned> fast = run_k(w, 2, 64, 3800000000u, 1 + 128, false);
  EXPECT_EQ(fast, run_k(w, 2, 64, 3800000000u, 1 + 128, true));
  for (unsigned t = 0; t < 128; ++t) {
    unsigned trips = 0;
    for (unsigned i = t + 3800000000u; i < 3900000000u; i += 4000000000u) ++trips;
    ASSERT_GT(trips, 1u);
    ASSERT_EQ(fast[1 + t], trips) << t;
  }
  const char* is_signed = R"(
extern "C" __global__ void k(cv::Span<unsigned> out, unsigned n) {
  const int t = static_cast<int>(threadIdx.x + blockIdx.x * blockDim.x) - 5;
  unsigned trips = 0;
  for (int i = t; i < static_cast<int>(n); i += static_cast<int>(blockDim.x * gridDim.x)) ++trips;
  out[6 + t] = trips;
}
)";
  const Built s = build_kernel(is_signed, "k");
  ASSERT_TRUE(s.module);
  EXPECT_NE(s.build.fission.code.find("cv_more_"), std::string::npos) << s.build.fission.code;
  EXPECT_EQ(s.build.fission.code.find("cv_wide_"), std::string::npos) << s.build.fission.code;
  for (unsigned n : {100u, 128u, 300u}) EXPECT_EQ(run_k(s, 2, 64, n, 1 + 128, false), run_k(s, 2, 64, n, 1 + 128, true));
}


// A bound held in a const local of the block (`const auto m = n;`): the
// block's test declares it again. One that differs between threads is no
// block value: the pass decides. Either way the fibers' answers.
TEST(EmuOnceLoops, ABoundInAConstOfTheBlockIsTestedOnceForTheBlock) {
  const char* kernel = R"(
extern "C" __global__ void k(cv::Span<unsigned> out, unsigned n) {
  const unsigned t = threadIdx.x + blockIdx.x * blockDim.x;
  const unsigned long long m = BOUND;
  unsigned trips = 0;
  for (unsigned long long i = cv::global_index(); i < m; i += cv::grid_threads()) trips += 1 + static_cast<unsigned>(i % 3);
  out[1 + t] = trips;
}
)";
  for (const char* bound : {"n", "n + (threadIdx.x & 1)"}) {
    SCOPED_TRACE(bound);
    std::string src = kernel;
    src.replace(src.find("BOUND"), 5, bound);
    const Built b = build_kernel(src, "k");
    ASSERT_TRUE(b.module);
    EXPECT_EQ(b.build.fission.code.find("cv_wide_") != std::string::npos, std::string(bound) == "n")
        << b.build.fission.code;
    for (unsigned n : {100u, 128u, 129u, 500u})
      EXPECT_EQ(run_k(b, 2, 64, n, 1 + 128, false), run_k(b, 2, 64, n, 1 + 128, true)) << n;
  }
}

}  // namespace
}  // namespace cv::emu::test
