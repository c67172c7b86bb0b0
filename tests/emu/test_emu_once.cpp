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
  const unsigned grid = 3, block = 64, threads = grid * block;
  // None, some, exactly one each, one thread twice, many.
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

}  // namespace
}  // namespace cv::emu::test
