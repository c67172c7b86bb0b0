// The CPU twins' vectorised loops, on every SIMD path this CPU can run, against
// the shared per-element math called one element at a time.
#include <gtest/gtest.h>
#include <vector_functions.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "common/cpu_simd.h"
#include "fountain/fountain.h"
#include "nbody/nbody.h"
#include "swarm/swarm.h"

namespace {

std::vector<cv::SimdPath> runnable_paths() {
  std::vector<cv::SimdPath> paths;
  for (cv::SimdPath p : {cv::SimdPath::Baseline, cv::SimdPath::Avx2})
    if (cv::simd_supported(p)) paths.push_back(p);
  return paths;
}

// The baseline x86-64 path does the scalar code's operations in the scalar
// code's order (no FMA to contract into), so it must agree to the bit.
bool baseline_is_bit_exact(cv::SimdPath p) {
#if defined(__x86_64__) && !defined(__FMA__)
  return p == cv::SimdPath::Baseline;
#else
  (void)p;
  return false;
#endif
}

}  // namespace

TEST(SimdPath, NamesRoundTripAndBaselineRunsEverywhere) {
  for (cv::SimdPath p : {cv::SimdPath::Baseline, cv::SimdPath::Avx2})
    EXPECT_EQ(cv::parse_simd_path(cv::to_string(p)), p);
  EXPECT_FALSE(cv::parse_simd_path("avx512"));
  EXPECT_TRUE(cv::simd_supported(cv::SimdPath::Baseline));
  EXPECT_TRUE(cv::simd_supported(cv::default_simd_path()));
  EXPECT_EQ(cv::require_simd(cv::SimdPath::Baseline, "test"), cv::SimdPath::Baseline);
  if (!cv::simd_supported(cv::SimdPath::Avx2)) {
    EXPECT_THROW(cv::require_simd(cv::SimdPath::Avx2, "test"), std::invalid_argument);
    cv::nbody::NBodyCpu sim(4);
    EXPECT_THROW(sim.set_simd(cv::SimdPath::Avx2), std::invalid_argument);
  }
}

TEST(NBodySimd, EveryPathMatchesTheScalarSharedMath) {
  using namespace cv::nbody;
  Params p;
  p.G = 0.7f;
  const float eps2 = p.softening * p.softening;
  for (unsigned n : {1u, 7u, 8u, 9u, 4097u}) {  // around and past the group of 8
    NBodyCpu sim(n);
    sim.reset(Initial::Galaxies, p, 3);
    std::vector<float4> body(n);
    for (unsigned i = 0; i < n; ++i) {
      const float4 x = sim.vbo()[i];
      body[i] = make_float4(x.x, x.y, x.z, sim.velocities()[i].w);
    }
    // Scalar reference: the shared accumulate(), j in order, as the kernels do;
    // scale = sum of |terms|, the size of the rounding a sum of them can carry.
    std::vector<float3> ref(n);
    std::vector<double> scale(n, 0.0);
    for (unsigned i = 0; i < n; ++i) {
      const float3 xi = make_float3(body[i].x, body[i].y, body[i].z);
      float3 a = make_float3(0.f, 0.f, 0.f);
      for (unsigned j = 0; j < n; ++j) {
        accumulate(a, xi, body[j], eps2);
        float3 t = make_float3(0.f, 0.f, 0.f);
        accumulate(t, xi, body[j], eps2);
        scale[i] += std::fabs(t.x) + std::fabs(t.y) + std::fabs(t.z);
      }
      ref[i] = make_float3(p.G * a.x, p.G * a.y, p.G * a.z);
    }
    for (cv::SimdPath path : runnable_paths()) {
      sim.set_simd(path);
      const std::vector<float4> got = sim.accelerations(p);
      ASSERT_EQ(got.size(), n);
      for (unsigned i = 0; i < n; ++i) {
        const std::string where = std::string(cv::to_string(path)) + " n=" + std::to_string(n) +
                                  " i=" + std::to_string(i);
        if (baseline_is_bit_exact(path)) {
          ASSERT_EQ(got[i].x, ref[i].x) << where;
          ASSERT_EQ(got[i].y, ref[i].y) << where;
          ASSERT_EQ(got[i].z, ref[i].z) << where;
        }
        const double tol = 1e-5 * p.G * scale[i] + 1e-30;
        ASSERT_NEAR(got[i].x, ref[i].x, tol) << where;
        ASSERT_NEAR(got[i].y, ref[i].y, tol) << where;
        ASSERT_NEAR(got[i].z, ref[i].z, tol) << where;
        ASSERT_EQ(got[i].w, 0.f) << where;
      }
    }
  }
}

TEST(NBodySimd, EnergyOnEveryPathMatchesAScalarSum) {
  using namespace cv::nbody;
  Params p;
  const float eps2 = p.softening * p.softening;
  for (unsigned n : {2u, 9u, 1001u}) {
    NBodyCpu sim(n);
    sim.reset(Initial::Galaxies, p, 4);  // synchronised: energy() adds no half kick
    double pot = 0, kin = 0;
    for (unsigned i = 0; i < n; ++i) {
      const float4 xi = sim.vbo()[i], v = sim.velocities()[i];
      double s = 0;
      for (unsigned j = 0; j < n; ++j) {
        if (j == i) continue;
        const float4 xj = sim.vbo()[j];
        s += potential_term(make_float3(xi.x, xi.y, xi.z),
                            make_float4(xj.x, xj.y, xj.z, sim.velocities()[j].w), eps2);
      }
      pot += -0.5 * p.G * static_cast<double>(v.w) * s;
      kin += 0.5 * v.w * (double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z);
    }
    for (cv::SimdPath path : runnable_paths()) {
      sim.set_simd(path);
      const Energy e = sim.energy(p);
      // Same terms in the same order; with FMA each float term may round
      // differently (a few 1e-8 relative).
      const double tol = baseline_is_bit_exact(path) ? 1e-13 : 1e-6;
      EXPECT_NEAR(e.potential, pot, tol * std::fabs(pot)) << cv::to_string(path) << " n=" << n;
      EXPECT_NEAR(e.kinetic, kin, 1e-12 * std::fabs(kin)) << cv::to_string(path) << " n=" << n;
    }
  }
}

namespace {

// The fountain stepped one particle at a time with the shared step(), from the
// twin's initial state: positions (x, y, z, age) and vy.
struct ScalarFountain {
  cv::fountain::Grid g;
  std::vector<float4> pos;
  std::vector<float> vy;

  ScalarFountain(unsigned n, const cv::fountain::Params& p, uint64_t seed)
      : g(cv::fountain::make_grid(n)) {
    auto init = cv::fountain::initial_state(g, p, seed);
    pos = std::move(init.positions);
    vy = std::move(init.vy);
  }
  void step(const cv::fountain::Frame& f, const cv::fountain::Params& p) {
    using namespace cv::fountain;
    for (unsigned i = 0; i < g.count; ++i) {
      Particle s{pos[i].x, pos[i].y, pos[i].z, pos[i].w, vy[i]};
      cv::fountain::step(s, launch_vx(i % g.width, g, p), launch_vz(i / g.width, g, p), f, p);
      pos[i] = make_float4(s.x, s.y, s.z, s.age);
      vy[i] = s.vy;
    }
  }
};

}  // namespace

TEST(FountainSimd, EveryPathMatchesTheScalarSharedStep) {
  using namespace cv::fountain;
  const Params p;
  const unsigned n = 10007;  // 101 x 100 grid with a partial last row
  ScalarFountain ref(n, p, 77);
  FrameClock clock(5);
  std::vector<Frame> frames;
  for (int k = 0; k < 700; ++k) frames.push_back(clock.next(p));  // past max_age: all respawned
  for (const Frame& f : frames) ref.step(f, p);
  for (Variant v : all_variants())
    for (cv::SimdPath path : runnable_paths()) {
      FountainCpu sim(n, v);
      sim.set_simd(path);
      sim.reset(p, 77);
      for (const Frame& f : frames) sim.step(f, p);
      const bool exact = baseline_is_bit_exact(path);
      for (unsigned i = 0; i < n; ++i) {
        const std::string where =
            std::string(to_string(v)) + " " + cv::to_string(path) + " i=" + std::to_string(i);
        const float4 got = sim.vbo()[i], want = ref.pos[i];
        const float age = v == Variant::Lean ? got.w : sim.state()[i].x;
        const float vy = v == Variant::Lean ? sim.vy()[i] : sim.state()[i].z;
        ASSERT_EQ(age, want.w) << where;  // respawn decisions agree on every path
        const float tol = exact ? 0.f : 1e-4f;
        ASSERT_NEAR(got.x, want.x, tol) << where;
        ASSERT_NEAR(got.y, want.y, tol) << where;
        ASSERT_NEAR(got.z, want.z, tol) << where;
        ASSERT_NEAR(vy, ref.vy[i], tol) << where;
        if (v == Variant::Original) {
          const float4 c = sim.vbo()[n + i], want_c = colour(want.w, p);
          ASSERT_EQ(c.y, want_c.y) << where;
          ASSERT_EQ(c.z, want_c.z) << where;
        }
      }
    }
}

TEST(SwarmSimd, EveryPathMatchesTheScalarSharedStep) {
  using namespace cv::swarm;
  const unsigned n = 3001;
  for (Variant v : all_variants()) {
    const Params p = default_params(v);
    const int steps = static_cast<int>(p.max_age) + 60;  // every particle respawned once
    auto target = [](int k) { return float3{0.3f * std::sin(0.01f * k), 0.2f, -0.1f * k / 100.f}; };
    // Scalar reference: the twin's own initial state, stepped one particle at a
    // time with the shared step().
    SwarmCpu init(n, v);
    init.reset(p, 8);
    std::vector<float4> vbo = init.vbo(), state = init.state();
    for (int k = 0; k < steps; ++k) {
      const uint32_t key = step_key(8, static_cast<uint64_t>(k));
      for (unsigned i = 0; i < n; ++i) {
        Particle s{vbo[i].x, vbo[i].y, vbo[i].z, state[i].x, state[i].y, state[i].z, state[i].w};
        step(s, target(k), key, i, v, p);
        vbo[i] = make_float4(s.x, s.y, s.z, age01(s.age, p));
        state[i] = make_float4(s.vx, s.vy, s.vz, s.age);
      }
    }
    for (cv::SimdPath path : runnable_paths()) {
      SwarmCpu sim(n, v);
      sim.set_simd(path);
      sim.reset(p, 8);
      for (int k = 0; k < steps; ++k) sim.step(target(k), p);
      const float tol = baseline_is_bit_exact(path) ? 0.f : 1e-4f;
      for (unsigned i = 0; i < n; ++i) {
        const std::string where =
            std::string(to_string(v)) + " " + cv::to_string(path) + " i=" + std::to_string(i);
        ASSERT_EQ(sim.state()[i].w, state[i].w) << where;  // same respawns
        ASSERT_NEAR(sim.vbo()[i].x, vbo[i].x, tol) << where;
        ASSERT_NEAR(sim.vbo()[i].y, vbo[i].y, tol) << where;
        ASSERT_NEAR(sim.vbo()[i].z, vbo[i].z, tol) << where;
        ASSERT_NEAR(sim.state()[i].y, state[i].y, tol) << where;
      }
    }
  }
}
