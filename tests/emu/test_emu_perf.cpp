// The emulator's costs: a barrier and a shuffle per thread, and the fountain
// kernel (no barriers: plain loops) against the built-in CPU lean step. The
// limits here are loose (a shared 2-core CI machine); the bench reports the
// numbers (docs/emulator.md).
#include <chrono>

#include "emu_test_util.h"
#include "fountain/fountain.h"
#include "usercode/emu/sync_cost.h"

namespace cv::emu::test {
namespace {

TEST(EmuPerf, BarrierAndShuffleCostPerThread) {
  const SyncCosts c = measure_sync_costs();
  ASSERT_TRUE(c.error.empty()) << c.error;
  std::printf("barrier_ns_per_thread %.1f shuffle_ns_per_thread %.1f\n", c.barrier_ns_per_thread,
              c.shuffle_ns_per_thread);
  // The figures are measured, not judged here: timing targets belong to
  // `cudaviz bench kernel` (barrier_ns_per_thread in its JSON), not to a unit test.
  EXPECT_GT(c.barrier_ns_per_thread, 0.0);
  EXPECT_GT(c.shuffle_ns_per_thread, 0.0);
}

struct Ids {
  unsigned* ids;
  int mode;
};

TEST(EmuPerf, FountainKernelAgainstTheBuiltInLeanStep) {
  Built b = build_kernel(shipped("fountain_kernel.cu"), "fountain_step", "fountain_kernel");
  ASSERT_TRUE(b.module);
  const unsigned n = 65536;
  const fountain::Params p;
  const fountain::Grid g = fountain::make_grid(n);
  fountain::FountainCpu sim(n, fountain::Variant::Lean);
  sim.reset(p, 42);
  fountain::InitialState s = fountain::initial_state(g, p, 42);
  std::vector<float4> in = s.positions, out(n);
  std::vector<float> vy = s.vy;
  fountain::FrameClock clock(7);
  using Clock = std::chrono::steady_clock;
  double builtin = 1e30, emu = 1e30;
  for (int k = 0; k < 30; ++k) {
    const fountain::Frame f = clock.next(p);
    auto t0 = Clock::now();
    sim.step(f, p);
    builtin = std::min(builtin, std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    SpanArg<const float4> a{in.data(), n};
    SpanArg<float4> o{out.data(), n};
    SpanArg<float> v{vy.data(), n};
    fountain::Grid gg = g;
    fountain::Frame ff = f;
    fountain::Params pp = p;
    Ids ids{nullptr, 0};
    void* params[] = {&a, &o, &v, &gg, &ff, &pp, &ids};
    t0 = Clock::now();
    const Report r = run(b.kernel, shape((g.width + 15) / 16, 16, (g.height + 15) / 16, 16), params,
                         {view(in, "in", false), view(out, "out"), view(vy, "vy")}, {});
    emu = std::min(emu, std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    ASSERT_TRUE(r.ok);
    std::swap(in, out);
  }
  std::printf("fountain 65536: built-in lean %.3f ms, emulated %.3f ms, ratio %.2f\n", builtin, emu, emu / builtin);
  EXPECT_LT(emu / builtin, 10.0);
}

}  // namespace
}  // namespace cv::emu::test
