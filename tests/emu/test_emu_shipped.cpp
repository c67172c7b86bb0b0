// Every shipped kernel of assets/kernels/ runs in the emulator with the
// built-in CPU reference's answer.
#include <cmath>

#include "emu_test_util.h"
#include "fountain/fountain.h"

namespace cv::emu::test {
namespace {

std::vector<int> lab_data(size_t n) {
  std::vector<int> d(n);
  unsigned long long x = 12345;
  for (auto& v : d) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    v = static_cast<int>(x >> 33);
  }
  return d;
}

unsigned long long count3_of(const std::vector<int>& d) {
  unsigned long long c = 0;
  for (int v : d) c += v % 3 == 0;
  return c;
}

unsigned long long run_count3(const Built& b, size_t n, unsigned block, Report* out = nullptr) {
  if (!b.module) return ~0ull;
  std::vector<int> data = lab_data(n);
  std::vector<unsigned long long> count(1, 0);
  SpanArg<const int> span{data.data(), data.size()};
  SpanArg<unsigned long long> count_arg{count.data(), 1};  // also reads as a plain pointer
  void* params[] = {&span, &count_arg};
  const unsigned grid = static_cast<unsigned>((n + block - 1) / block);
  Report r = run(b.kernel, shape(grid, block), params, {view(data, "data", false), view(count, "count")}, {});
  EXPECT_TRUE(r.ok) << r.error;
  if (out) *out = r;
  return count[0];
}

TEST(EmuShipped, Count3KernelsGiveTheCpuAnswer) {
  const size_t n = 100000;
  const unsigned long long right = count3_of(lab_data(n));
  for (const char* f : {"count3.cu", "count3_atomic.cu", "count3_shared.cu"}) {
    const Built b = build_kernel(shipped(f), "count3", "count3");
    for (unsigned block : {32u, 256u, 1000u}) EXPECT_EQ(run_count3(b, n, block), right) << f << " block " << block;
  }
}

// With libclang (the fast path), both as loops over each block's threads;
// without it, the barrier kernel as fibers and the other as a plain loop.
TEST(EmuShipped, SharedCountRunsAsLoopsOrFibersPlainCountAsLoops) {
  Report r;
  const Built shared = build_kernel(shipped("count3_shared.cu"), "count3", "count3");
  run_count3(shared, 5000, 128, &r);
  const bool fast = shared.build.fission.why.empty();
  EXPECT_EQ(r.path, fast ? "fission" : "fibers") << r.fission_note;
  EXPECT_EQ(r.fibers, !fast);
  run_count3(build_kernel(shipped("count3_atomic.cu"), "count3", "count3"), 5000, 128, &r);
  EXPECT_EQ(r.path, fast ? "fission" : "loop");
  EXPECT_FALSE(r.fibers);
}

TEST(EmuShipped, RacyCountRunsAndNeverCountsMore) {
  const size_t n = 50000;
  const unsigned long long got = run_count3(build_kernel(shipped("count3_racy.cu"), "count3", "count3"), n, 256);
  EXPECT_LE(got, count3_of(lab_data(n)));
  EXPECT_GT(got, 0u);
}

// The prelude's sample hash, on the host (cudaviz.h: mix64, rand01, sample_inside).
unsigned long long mix64(unsigned long long z) {
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
bool inside(unsigned long long seed, unsigned long long k) {
  auto r = [&](unsigned long long c) {
    return static_cast<float>(mix64(seed ^ mix64(c)) >> 40) * (1.0f / 16777216.0f);
  };
  const float x = r(2 * k), y = r(2 * k + 1);
  return x * x + y * y <= 1.0f;
}

TEST(EmuShipped, PiCountsEverySampleExactly) {
  Built b = build_kernel(shipped("pi.cu"), "pi_samples", "pi");
  ASSERT_TRUE(b.module);
  const unsigned long long n = 1 << 20, seed = 7;
  unsigned long long right = 0;
  for (unsigned long long k = 0; k < n; ++k) right += inside(seed, k);
  for (unsigned block : {64u, 256u}) {
    std::vector<unsigned long long> hits(1, 0);
    SpanArg<unsigned long long> h{hits.data(), 1};  // also reads as a plain pointer
    unsigned long long nn = n, s = seed;
    void* params[] = {&nn, &s, &h};
    const unsigned grid = static_cast<unsigned>((n + 64ull * block - 1) / (64ull * block));
    Report r = run(b.kernel, shape(grid, block), params, {view(hits, "hits")}, {});
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(hits[0], right) << "block " << block;
    std::printf("pi 1M samples, block %u: %.1f ms emulated\n", block, r.ms);  // the 1 s target: bench
  }
}

struct Ids {
  unsigned* ids;
  int mode;
};

// The fountain kernels against the built-in lean CPU step, step by step.
void check_fountain(const std::string& file, unsigned bx, unsigned by) {
  Built b = build_kernel(shipped(file), "fountain_step", "fountain_kernel");
  ASSERT_TRUE(b.module);
  const unsigned n = 10000;
  const fountain::Params p;
  const fountain::Grid g = fountain::make_grid(n);
  fountain::FountainCpu sim(n, fountain::Variant::Lean);
  sim.reset(p, 42);
  fountain::InitialState s = fountain::initial_state(g, p, 42);
  std::vector<float4> in = s.positions, out(n);
  std::vector<float> vy = s.vy;
  fountain::FrameClock clock(7);
  for (int k = 0; k < 60; ++k) {
    const fountain::Frame f = clock.next(p);
    sim.step(f, p);
    SpanArg<const float4> a{in.data(), n};
    SpanArg<float4> o{out.data(), n};
    SpanArg<float> v{vy.data(), n};
    fountain::Grid gg = g;
    fountain::Frame ff = f;
    fountain::Params pp = p;
    Ids ids{nullptr, 0};
    void* params[] = {&a, &o, &v, &gg, &ff, &pp, &ids};
    Report r = run(b.kernel, shape((g.width + bx - 1) / bx, bx, (g.height + by - 1) / by, by), params,
                   {view(in, "in", false), view(out, "out"), view(vy, "vy")}, {});
    ASSERT_TRUE(r.ok) << r.error;
    std::swap(in, out);
  }
  const std::vector<float4>& want = sim.vbo();
  double worst = 0;
  for (unsigned i = 0; i < n; ++i)
    worst = std::max({worst, std::fabs(double(want[i].x) - in[i].x), std::fabs(double(want[i].y) - in[i].y),
                      std::fabs(double(want[i].z) - in[i].z), std::fabs(double(want[i].w) - in[i].w)});
  EXPECT_LE(worst, 1e-4) << file;
}

TEST(EmuShipped, FountainKernelMatchesTheBuiltInCpuStep) { check_fountain("fountain_kernel.cu", 16, 16); }
TEST(EmuShipped, OriginalFountainMatchesTheBuiltInCpuStep) {
  check_fountain("fountain_kernel_original.cu", 32, 4);
}

// Every shipped kernel through the registry's launches runs in
// app_tests (UsercodeBench.EveryShippedKernelRunsOnTheCpuWithTheReferenceAnswer,
// and explain's ExplainShipped): this library knows no template.

}  // namespace
}  // namespace cv::emu::test
