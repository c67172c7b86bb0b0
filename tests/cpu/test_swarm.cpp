// The swarm's per-particle step against hand-computed cases, its random
// draws, and the CPU twin over many steps.
#include <gtest/gtest.h>
#include <vector_functions.h>

#include <cmath>

#include "swarm/swarm.h"

using namespace cv::swarm;

namespace {

Params plain() {  // no spawn jitter, no drag, no gravity: easy to compute by hand
  Params p;
  p.attraction = 0.01f;
  p.max_age = 100.f;
  p.dt = 1.f;
  p.spawn_radius = 0.f;
  p.spawn_speed = 0.f;
  p.gravity = 0.f;
  p.drag = 0.f;
  return p;
}

}  // namespace

TEST(SwarmStep, SteersTowardsTheTarget) {
  const Params p = plain();
  Particle s{3.f, 0.f, 4.f, 0.f, 0.f, 0.f, 10.f};
  step(s, make_float3(0, 0, 0), 1u, 0u, Variant::Swarm, p);
  // Unit vector to the target (-0.6, 0, -0.8) times the attraction.
  EXPECT_FLOAT_EQ(s.vx, -0.006f);
  EXPECT_FLOAT_EQ(s.vz, -0.008f);
  EXPECT_FLOAT_EQ(s.vy, 0.f);
  EXPECT_FLOAT_EQ(s.x, 2.994f);
  EXPECT_FLOAT_EQ(s.z, 3.992f);
  EXPECT_FLOAT_EQ(s.age, 11.f);
}

TEST(SwarmStep, TimeStepScalesPushMotionAndAge) {
  Params p = plain();
  p.dt = 2.f;
  Particle s{0.f, 1.f, 0.f, 0.f, 0.05f, 0.f, 0.f};
  step(s, make_float3(0, 0, 0), 1u, 0u, Variant::Swarm, p);
  EXPECT_FLOAT_EQ(s.vy, 0.05f - 0.02f);
  EXPECT_FLOAT_EQ(s.y, 1.f + 2.f * 0.03f);
  EXPECT_FLOAT_EQ(s.age, 2.f);
}

TEST(SwarmStep, DragDampsTheVelocity) {
  Params p = plain();
  p.attraction = 0.f;
  p.drag = 0.1f;
  Particle s{0.f, 0.f, 0.f, 1.f, 0.f, 0.f, 0.f};
  step(s, make_float3(5, 0, 0), 1u, 0u, Variant::Swarm, p);
  EXPECT_FLOAT_EQ(s.vx, 0.9f);
  EXPECT_FLOAT_EQ(s.x, 0.9f);
}

TEST(SwarmStep, SparklerPushesAwayAndFalls) {
  Params p = plain();
  p.gravity = 0.001f;
  Particle s{0.f, 2.f, 0.f, 0.f, 0.f, 0.f, 10.f};
  step(s, make_float3(0, 0, 0), 1u, 0u, Variant::Sparkler, p);
  EXPECT_FLOAT_EQ(s.vy, 0.01f - 0.001f);  // pushed up (away from the target below), minus gravity
  Particle t{1.f, 0.f, 0.f, 0.f, 0.f, 0.f, 10.f};
  step(t, make_float3(0, 0, 0), 1u, 0u, Variant::Sparkler, p);
  EXPECT_FLOAT_EQ(t.vx, 0.01f);  // away from the target
  EXPECT_FLOAT_EQ(t.vy, -0.001f);
  EXPECT_FLOAT_EQ(t.y, -0.001f);
}

TEST(SwarmStep, SparklerSparksEndUpFalling) {
  const Params p = default_params(Variant::Sparkler);
  const float3 target = make_float3(0.f, 1.f, 0.f);
  double mean_y = 0;
  const int count = 500;
  for (int i = 0; i < count; ++i) {
    Particle s{0, 0, 0, 0, 0, 0, p.max_age};  // respawns on the first step
    for (int k = 0; k < static_cast<int>(p.max_age) - 1; ++k)
      step(s, target, step_key(9, k), i, Variant::Sparkler, p);
    ASSERT_LT(s.age, p.max_age);
    EXPECT_LT(s.vy, 0.f) << "spark " << i << " still rising at the end of its life";
    mean_y += s.y;
  }
  EXPECT_LT(mean_y / count, target.y - 0.1);
}

TEST(SwarmStep, RespawnsNearTheTargetAfterMaxAge) {
  Params p = plain();
  p.spawn_radius = 0.25f;
  p.spawn_speed = 1e-3f;
  const float3 target = make_float3(2.f, -1.f, 0.5f);
  for (uint32_t i = 0; i < 200; ++i) {
    Particle s{50.f, 50.f, 50.f, 1.f, 1.f, 1.f, p.max_age};
    step(s, target, step_key(3, 17), i, Variant::Swarm, p);
    EXPECT_FLOAT_EQ(s.age, 1.f);
    // Offset at most spawn_radius per axis, plus one step of motion.
    EXPECT_LE(std::fabs(s.x - target.x), 0.25f + 0.02f);
    EXPECT_LE(std::fabs(s.y - target.y), 0.25f + 0.02f);
    EXPECT_LE(std::fabs(s.z - target.z), 0.25f + 0.02f);
    EXPECT_LE(std::fabs(s.vx), 1e-3f + 0.011f);
  }
}

TEST(SwarmStep, NoRespawnBeforeMaxAge) {
  const Params p = plain();
  Particle s{50.f, 0.f, 0.f, 0.f, 0.f, 0.f, p.max_age - 1.f};
  step(s, make_float3(0, 0, 0), 1u, 0u, Variant::Swarm, p);
  EXPECT_FLOAT_EQ(s.x, 50.f - 0.01f);
  EXPECT_FLOAT_EQ(s.age, p.max_age);
}

TEST(SwarmStep, ParticleOnTheTargetStaysFinite) {
  const Params p = plain();
  Particle s{1.f, 2.f, 3.f, 0.f, 0.f, 0.f, 0.f};
  step(s, make_float3(1.f, 2.f, 3.f), 1u, 0u, Variant::Swarm, p);
  EXPECT_TRUE(std::isfinite(s.x) && std::isfinite(s.vx));
  EXPECT_FLOAT_EQ(s.x, 1.f);
}

TEST(SwarmRandom, UniformDrawsAreInRangeAndUnbiased) {
  double sum = 0, sum2 = 0;
  float lo = 1, hi = -1;
  const int n = 100000;
  for (int i = 0; i < n; ++i) {
    const float u = uniform_pm1(step_key(1, i / 100), i % 100, i % 3);
    lo = std::min(lo, u);
    hi = std::max(hi, u);
    sum += u;
    sum2 += u * u;
  }
  EXPECT_GE(lo, -1.f);
  EXPECT_LT(hi, 1.f);
  EXPECT_LT(lo, -0.99f);
  EXPECT_GT(hi, 0.99f);
  EXPECT_NEAR(sum / n, 0.0, 0.01);
  EXPECT_NEAR(sum2 / n, 1.0 / 3.0, 0.01);  // variance of U(-1, 1)
  EXPECT_NE(step_key(1, 0), step_key(1, 1));
  EXPECT_NE(step_key(1, 0), step_key(2, 0));
  EXPECT_NE(uniform_pm1(5, 0, 0), uniform_pm1(5, 1, 0));
  EXPECT_NE(uniform_pm1(5, 0, 0), uniform_pm1(5, 0, 1));
}

TEST(SwarmMisc, NamesGridAndAge) {
  for (Variant v : all_variants()) EXPECT_EQ(parse_variant(to_string(v)), v);
  EXPECT_FALSE(parse_variant("flock"));
  const Grid g = make_grid(1000);
  EXPECT_EQ(g.width, 32u);
  EXPECT_EQ(g.height, 32u);
  EXPECT_EQ(make_grid(0).width, 0u);
  Params p;
  p.max_age = 200;
  EXPECT_FLOAT_EQ(age01(50, p), 0.25f);
  EXPECT_FLOAT_EQ(age01(400, p), 1.f);
  EXPECT_FLOAT_EQ(age01(-3, p), 0.f);
  EXPECT_EQ(vbo_bytes(10), 160u);
}

TEST(SwarmCpu, ResetStaggersAgesAroundTheTarget) {
  const Params p;
  SwarmCpu sim(5000);
  const float3 target = make_float3(1.f, 0.f, -1.f);
  sim.reset(p, 4, target);
  ASSERT_EQ(sim.vbo().size(), 5000u);
  ASSERT_EQ(sim.state().size(), 5000u);
  float age_lo = 1e9f, age_hi = -1;
  for (size_t i = 0; i < 5000; ++i) {
    const float4 q = sim.vbo()[i];
    EXPECT_LE(std::fabs(q.x - target.x), p.spawn_radius);
    EXPECT_GE(q.w, 0.f);
    EXPECT_LE(q.w, 1.f);
    EXPECT_FLOAT_EQ(q.w, age01(sim.state()[i].w, p));
    age_lo = std::min(age_lo, sim.state()[i].w);
    age_hi = std::max(age_hi, sim.state()[i].w);
  }
  EXPECT_LT(age_lo, 10.f);
  EXPECT_GT(age_hi, p.max_age - 10.f);
  EXPECT_LT(age_hi, p.max_age);
}

TEST(SwarmCpu, FollowsAMovingTargetAndRespawnsEveryone) {
  const Params p;
  SwarmCpu sim(3001);
  sim.reset(p, 8);
  const int steps = static_cast<int>(p.max_age) + 5;
  for (int k = 0; k < steps; ++k) sim.step(path_target(k), p);
  EXPECT_EQ(sim.steps(), static_cast<uint64_t>(steps));
  const float3 t = path_target(steps - 1);
  double mean_d = 0;
  for (size_t i = 0; i < sim.vbo().size(); ++i) {
    const float4 q = sim.vbo()[i];
    ASSERT_TRUE(std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z));
    // Every particle has respawned once by now: none is older than the run.
    EXPECT_LE(sim.state()[i].w, static_cast<float>(steps));
    mean_d += std::sqrt((q.x - t.x) * (q.x - t.x) + (q.y - t.y) * (q.y - t.y) +
                        (q.z - t.z) * (q.z - t.z));
  }
  EXPECT_LT(mean_d / sim.vbo().size(), 1.0);  // the swarm stays around its target
}

TEST(SwarmCpu, SameSeedSameRun) {
  const Params p = default_params(Variant::Sparkler);
  SwarmCpu a(777, Variant::Sparkler), b(777, Variant::Sparkler);
  a.reset(p, 3);
  b.reset(p, 3);
  for (int k = 0; k < 300; ++k) {
    a.step(path_target(k), p);
    b.step(path_target(k), p);
  }
  for (size_t i = 0; i < 777; ++i) ASSERT_EQ(a.vbo()[i].x, b.vbo()[i].x);
}
