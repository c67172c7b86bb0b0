// The fountain's per-particle step against hand-computed cases, and the CPU
// twin over many steps.
#include <gtest/gtest.h>

#include <cmath>

#include "fountain/fountain.h"

using namespace cv::fountain;

TEST(FountainStep, RespawnsOldParticleAtEmitter) {
  Params p;
  Frame f{0.1f, 0.2f, 0.5f};
  Particle s{3.f, -2.f, 4.f, p.max_age, -0.3f};
  step(s, 0.004f, -0.002f, f, p);
  EXPECT_FLOAT_EQ(s.age, 1.f);
  EXPECT_FLOAT_EQ(s.x, 0.1f + 0.004f);
  EXPECT_FLOAT_EQ(s.y, 0.02f);  // launch 0.015 + 0.01 * 0.5
  EXPECT_FLOAT_EQ(s.z, 0.2f - 0.002f);
  EXPECT_FLOAT_EQ(s.vy, 0.02f - 1e-4f);
}

TEST(FountainStep, MovesAgesAndFalls) {
  Params p;
  Particle s{1.f, 1.f, -1.f, 10.f, 0.01f};
  step(s, 0.005f, 0.f, Frame{}, p);
  EXPECT_FLOAT_EQ(s.x, 1.005f);
  EXPECT_FLOAT_EQ(s.y, 1.01f);
  EXPECT_FLOAT_EQ(s.z, -1.f);
  EXPECT_FLOAT_EQ(s.age, 11.f);
  EXPECT_FLOAT_EQ(s.vy, 0.01f - 1e-4f);
}

TEST(FountainStep, BouncesOnTableTop) {
  Params p;
  Particle s{1.f, 0.005f, 1.f, 50.f, -0.01f};
  step(s, 0.f, 0.f, Frame{}, p);
  EXPECT_FLOAT_EQ(s.y, -0.005f);
  EXPECT_FLOAT_EQ(s.vy, (-0.01f - 1e-4f) * -0.2f);
  EXPECT_GT(s.vy, 0.f);
}

TEST(FountainStep, FallsPastTheTableEdge) {
  Params p;
  Particle s{6.f, 0.005f, 0.f, 50.f, -0.01f};  // r = 6 > table radius 5
  step(s, 0.f, 0.f, Frame{}, p);
  EXPECT_FLOAT_EQ(s.vy, -0.01f - 1e-4f);
}

TEST(FountainStep, ColourByAge) {
  Params p;
  float4 young = colour(0.f, p), mid = colour(p.max_age / 2, p), old = colour(p.max_age, p);
  EXPECT_FLOAT_EQ(young.x, 1.f);
  EXPECT_FLOAT_EQ(young.y, 1.f);
  EXPECT_FLOAT_EQ(young.z, 1.f);
  EXPECT_FLOAT_EQ(mid.y, 0.75f);
  EXPECT_FLOAT_EQ(mid.z, 0.5f);
  EXPECT_FLOAT_EQ(old.y, 0.5f);
  EXPECT_FLOAT_EQ(old.z, 0.f);
}

TEST(FountainGrid, CoversCountWithPartialLastRow) {
  Grid g = make_grid(65536);
  EXPECT_EQ(g.width, 256u);
  EXPECT_EQ(g.height, 256u);
  g = make_grid(10);
  EXPECT_EQ(g.width, 4u);
  EXPECT_EQ(g.height, 3u);
  EXPECT_GE(g.width * g.height, 10u);
  g = make_grid(1);
  EXPECT_EQ(g.width, 1u);
  EXPECT_EQ(g.height, 1u);
}

TEST(FountainGrid, LaunchVelocitySpansSpread) {
  Params p;
  Grid g = make_grid(256 * 256);
  EXPECT_FLOAT_EQ(launch_vx(0, g, p), -0.01f);
  EXPECT_FLOAT_EQ(launch_vx(128, g, p), 0.f);
  EXPECT_FLOAT_EQ(launch_vz(255, g, p), 0.02f * (255.f / 256.f - 0.5f));
}

TEST(FountainCpu, ManyStepsStayFiniteAndBounded) {
  Params p;
  FountainCpu sim(5000, Variant::Lean);
  sim.reset(p, 3);
  FrameClock clock(9);
  for (int i = 0; i < 1500; ++i) sim.step(clock.next(p), p);
  const float reach = p.emitter_radius + p.spread * 0.5f * p.max_age + 1e-3f;
  for (const float4& q : sim.vbo()) {
    ASSERT_TRUE(std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z) && std::isfinite(q.w));
    ASSERT_GE(q.w, 1.f);
    ASSERT_LE(q.w, p.max_age);
    ASSERT_GT(q.y, kHiddenY * 0.5f) << "every particle has respawned after max_age steps";
    ASSERT_LE(std::fabs(q.x), reach);
    ASSERT_LE(std::fabs(q.z), reach);
    ASSERT_LT(q.y, 4.f);   // launch speed <= 0.025: apex ~3.1
    ASSERT_GT(q.y, -40.f);  // 600 steps of free fall at most
  }
}

TEST(FountainCpu, LeanAndSeedLayoutsAgree) {
  Params p;
  FountainCpu lean(777, Variant::Lean), seed(777, Variant::Original);
  lean.reset(p, 5);
  seed.reset(p, 5);
  FrameClock c1(11), c2(11);
  for (int i = 0; i < 700; ++i) {
    lean.step(c1.next(p), p);
    seed.step(c2.next(p), p);
  }
  for (unsigned i = 0; i < 777; ++i) {
    const float4 a = lean.vbo()[i], b = seed.vbo()[i];
    ASSERT_EQ(a.x, b.x);
    ASSERT_EQ(a.y, b.y);
    ASSERT_EQ(a.z, b.z);
    const float4 c = seed.vbo()[777 + i], want = colour(a.w, p);
    ASSERT_EQ(c.y, want.y);
    ASSERT_EQ(c.z, want.z);
  }
}

TEST(FountainCpu, ResetRestartsTheSameRun) {
  Params p;
  FountainCpu sim(300, Variant::Lean);
  sim.reset(p, 8);
  auto before = sim.vbo();
  FrameClock clock(1);
  for (int i = 0; i < 20; ++i) sim.step(clock.next(p), p);
  sim.reset(p, 8);
  for (size_t i = 0; i < before.size(); ++i) ASSERT_EQ(sim.vbo()[i].w, before[i].w);
}
