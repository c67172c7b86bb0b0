// The n-body per-interaction math against hand-computed cases, the slice
// choice, initial conditions, and the CPU twin's physics (momentum, a bound
// two-body orbit, energy).
#include <gtest/gtest.h>
#include <vector_functions.h>

#include <atomic>
#include <cmath>

#include "nbody/nbody.h"

using namespace cv::nbody;

namespace {

float3 acc_from(float3 xi, float4 bj, float eps2) {
  float3 a = make_float3(0.f, 0.f, 0.f);
  accumulate(a, xi, bj, eps2);
  return a;
}

double rel_l2(const std::vector<float4>& got, const std::vector<double>& ref) {
  double num = 0, den = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const double d[3] = {got[i].x - ref[3 * i], got[i].y - ref[3 * i + 1],
                         got[i].z - ref[3 * i + 2]};
    for (int k = 0; k < 3; ++k) {
      num += d[k] * d[k];
      den += ref[3 * i + k] * ref[3 * i + k];
    }
  }
  return std::sqrt(num / den);
}

Bodies two_body(float separation, float mass_each, float speed) {
  Bodies b;
  b.pos = {make_float4(-0.5f * separation, 0, 0, speed),
           make_float4(0.5f * separation, 0, 0, speed)};
  b.vel = {make_float4(0, 0, -speed, mass_each), make_float4(0, 0, speed, mass_each)};
  return b;
}

}  // namespace

TEST(NBodyMath, UnitDistanceNoSoftening) {
  const float3 a = acc_from(make_float3(0, 0, 0), make_float4(1, 0, 0, 2), 0.f);
  EXPECT_FLOAT_EQ(a.x, 2.f);  // m / r^2
  EXPECT_FLOAT_EQ(a.y, 0.f);
  EXPECT_FLOAT_EQ(a.z, 0.f);
}

TEST(NBodyMath, ThreeFourFiveTriangle) {
  // r = 5: m r_vec / r^3 = (3, 4, 0) / 125.
  const float3 a = acc_from(make_float3(1, 1, 1), make_float4(4, 5, 1, 1), 0.f);
  EXPECT_FLOAT_EQ(a.x, 0.024f);
  EXPECT_FLOAT_EQ(a.y, 0.032f);
  EXPECT_FLOAT_EQ(a.z, 0.f);
}

TEST(NBodyMath, SofteningEntersTheDistance) {
  // r^2 + eps^2 = 1 + 3 = 4: m r_vec / 4^(3/2) = 1/8 along -z.
  const float3 a = acc_from(make_float3(0, 0, 1), make_float4(0, 0, 0, 1), 3.f);
  EXPECT_FLOAT_EQ(a.x, 0.f);
  EXPECT_FLOAT_EQ(a.z, -0.125f);
}

TEST(NBodyMath, SelfInteractionAddsExactlyZero) {
  float3 a = make_float3(0.25f, -1.5f, 3.f);
  accumulate(a, make_float3(0.3f, -0.7f, 2.f), make_float4(0.3f, -0.7f, 2.f, 5.f), 1e-4f);
  EXPECT_EQ(a.x, 0.25f);
  EXPECT_EQ(a.y, -1.5f);
  EXPECT_EQ(a.z, 3.f);
}

TEST(NBodyMath, AccumulatesIntoExistingSum) {
  float3 a = make_float3(1, 1, 1);
  accumulate(a, make_float3(0, 0, 0), make_float4(0, -2, 0, 4), 0.f);  // 4 / 4 along -y
  EXPECT_FLOAT_EQ(a.x, 1.f);
  EXPECT_FLOAT_EQ(a.y, 0.f);
  EXPECT_FLOAT_EQ(a.z, 1.f);
}

TEST(NBodyMath, PotentialTerm) {
  EXPECT_FLOAT_EQ(potential_term(make_float3(0, 0, 0), make_float4(3, 4, 0, 2), 0.f), 0.4f);
  EXPECT_FLOAT_EQ(potential_term(make_float3(0, 0, 0), make_float4(0, 0, 0, 2), 0.25f),
                  4.f);  // m / eps
}

TEST(NBodyMath, KickThenDrift) {
  float3 x = make_float3(1, 2, 3), v = make_float3(0.5f, 0, -1);
  kick_drift(x, v, make_float3(2, 4, 0), 0.25f, 0.5f);
  EXPECT_FLOAT_EQ(v.x, 1.f);
  EXPECT_FLOAT_EQ(v.y, 1.f);
  EXPECT_FLOAT_EQ(v.z, -1.f);
  EXPECT_FLOAT_EQ(x.x, 1.5f);
  EXPECT_FLOAT_EQ(x.y, 2.5f);
  EXPECT_FLOAT_EQ(x.z, 2.5f);
  EXPECT_FLOAT_EQ(speed(make_float3(2, 3, 6)), 7.f);
}

TEST(NBodyVariants, NamesRoundTrip) {
  ASSERT_EQ(all_variants().size(), 3u);
  for (Variant v : all_variants()) EXPECT_EQ(parse_variant(to_string(v)), v);
  EXPECT_STREQ(to_string(Variant::Original), "original");
  EXPECT_STREQ(to_string(Variant::Tiled), "tiled");
  EXPECT_STREQ(to_string(Variant::Fast), "fast");
  EXPECT_FALSE(parse_variant("naive"));
  for (Initial ic : all_initials()) EXPECT_EQ(parse_initial(to_string(ic)), ic);
  EXPECT_FALSE(parse_initial("cube"));
}

TEST(NBodySlices, FillsTheResidentSlots) {
  // 1M bodies, 256-thread blocks of 4 bodies a thread: 1024 blocks are 1.94
  // waves of 528 slots, 97% full: no split.
  EXPECT_EQ(choose_slices(1024, 4096, 528), 1u);
  // 131072 bodies: 128 blocks; 4 slices make 512 of 528 (97%).
  EXPECT_EQ(choose_slices(128, 512, 528), 4u);
  // 32768 bodies: 32 blocks; 16 slices make 512 of 528.
  EXPECT_EQ(choose_slices(32, 128, 528), 16u);
  // Never more slices than tiles; the best fill when none reaches 95%.
  EXPECT_EQ(choose_slices(3, 2, 10), 2u);
  EXPECT_EQ(choose_slices(1, 1, 528), 1u);
  EXPECT_EQ(choose_slices(5, 100, 0), 1u);
  EXPECT_EQ(choose_slices(0, 100, 10), 1u);
  for (unsigned ib : {1u, 7u, 33u, 100u})
    for (unsigned ms : {1u, 5u, 64u}) {
      const unsigned s = choose_slices(ib, ms, 264);
      EXPECT_GE(s, 1u);
      EXPECT_LE(s, ms);
    }
}

TEST(NBodySlices, FastBodiesPerThreadFollowsTheBlock) {
  // Without a device the plan takes the first build that fits the block: pairs4.
  EXPECT_EQ(fast_tile_for(cv::BlockShape{256, 1, 1}), "pairs4");
  EXPECT_EQ(fast_bodies_per_thread(cv::BlockShape{256, 1, 1}), 4u);
  EXPECT_EQ(fast_bodies_per_thread(cv::BlockShape{1024, 1, 1}), 4u);  // the 64-register build
  EXPECT_EQ(fast_bodies_per_thread(cv::BlockShape{32, 16, 1}, "pairs8"), 8u);
  EXPECT_EQ(fast_bodies_per_thread(cv::BlockShape{256, 1, 1}, "k8u4"), 8u);
  EXPECT_THROW(fast_tile_for(cv::BlockShape{1024, 1, 1}, "pairs8"), std::invalid_argument);
}

TEST(NBodyEnergy, DriftIsRelativeToStart) {
  EXPECT_DOUBLE_EQ(energy_drift(Energy{1.0, -3.0}, Energy{1.0, -2.0}), -1.0);
  EXPECT_DOUBLE_EQ(energy_drift(Energy{0.5, -1.0}, Energy{0, 0}), 0.0);
}

TEST(NBodyInitial, EveryKindIsFiniteCentredAndOfTheRightCount) {
  const Params p;
  for (Initial ic : all_initials()) {
    for (unsigned n : {1u, 2u, 999u, 4096u}) {
      const Bodies b = make_bodies(ic, n, p, 7);
      ASSERT_EQ(b.pos.size(), n) << to_string(ic);
      ASSERT_EQ(b.vel.size(), n);
      double mass = 0, cx = 0, cz = 0, scale = 0;
      for (unsigned i = 0; i < n; ++i) {
        for (float f : {b.pos[i].x, b.pos[i].y, b.pos[i].z, b.pos[i].w, b.vel[i].x, b.vel[i].y,
                        b.vel[i].z, b.vel[i].w})
          ASSERT_TRUE(std::isfinite(f)) << to_string(ic) << " body " << i;
        ASSERT_GE(b.vel[i].w, 0.f);
        EXPECT_NEAR(
            b.pos[i].w,
            std::sqrt(b.vel[i].x * b.vel[i].x + b.vel[i].y * b.vel[i].y + b.vel[i].z * b.vel[i].z),
            1e-5f);
        mass += b.vel[i].w;
        cx += b.vel[i].w * b.pos[i].x;
        cz += b.vel[i].w * b.pos[i].z;
        scale = std::max(scale, static_cast<double>(std::fabs(b.pos[i].x)));
      }
      EXPECT_NEAR(mass, 1.0, 1e-5) << to_string(ic) << " n=" << n;
      EXPECT_NEAR(cx, 0.0, 1e-5);
      EXPECT_NEAR(cz, 0.0, 1e-5);
      const Momentum m = momentum(b.vel);
      EXPECT_NEAR(m.x, 0.0, 1e-6);
      EXPECT_NEAR(m.y, 0.0, 1e-6);
      EXPECT_NEAR(m.z, 0.0, 1e-6);
      if (n > 100) {
        EXPECT_GT(scale, 0.3) << to_string(ic);  // spread out, not collapsed
        EXPECT_LT(scale, 3.0) << to_string(ic);
      }
    }
  }
}

TEST(NBodyInitial, SeededAndDeterministic) {
  const Params p;
  const Bodies a = make_bodies(Initial::Galaxies, 500, p, 3),
               b = make_bodies(Initial::Galaxies, 500, p, 3),
               c = make_bodies(Initial::Galaxies, 500, p, 4);
  bool differs = false;
  for (size_t i = 0; i < 500; ++i) {
    EXPECT_EQ(a.pos[i].x, b.pos[i].x);
    EXPECT_EQ(a.vel[i].z, b.vel[i].z);
    differs |= a.pos[i].x != c.pos[i].x;
  }
  EXPECT_TRUE(differs);
}

TEST(NBodyInitial, GalaxiesAreTwoClustersApart) {
  const Bodies b = make_bodies(Initial::Galaxies, 2000, Params{}, 1);
  double m1 = 0, x1 = 0, m2 = 0, x2 = 0;
  for (size_t i = 0; i < 1000; ++i) {
    m1 += b.vel[i].w;
    x1 += b.vel[i].w * b.pos[i].x;
    m2 += b.vel[1000 + i].w;
    x2 += b.vel[1000 + i].w * b.pos[1000 + i].x;
  }
  EXPECT_LT(x1 / m1, -0.5);
  EXPECT_GT(x2 / m2, 0.5);
}

TEST(NBodyCpu, AccelerationsMatchADoubleReference) {
  Params p;
  p.G = 0.7f;
  for (unsigned n : {1u, 13u, 253u}) {  // not multiples of the CPU's group of 8
    NBodyCpu sim(n);
    sim.reset(Initial::Sphere, p, 11);
    const std::vector<float4> got = sim.accelerations(p);
    ASSERT_EQ(got.size(), n);
    std::vector<double> ref(3 * n, 0.0);
    const double eps2 = static_cast<double>(p.softening) * p.softening;
    for (unsigned i = 0; i < n; ++i)
      for (unsigned j = 0; j < n; ++j) {
        const double dx = static_cast<double>(sim.vbo()[j].x) - sim.vbo()[i].x,
                     dy = static_cast<double>(sim.vbo()[j].y) - sim.vbo()[i].y,
                     dz = static_cast<double>(sim.vbo()[j].z) - sim.vbo()[i].z;
        const double s =
            p.G * sim.velocities()[j].w / std::pow(dx * dx + dy * dy + dz * dz + eps2, 1.5);
        ref[3 * i] += dx * s;
        ref[3 * i + 1] += dy * s;
        ref[3 * i + 2] += dz * s;
      }
    if (n == 1) {
      EXPECT_EQ(got[0].x, 0.f);
      continue;
    }
    EXPECT_LT(rel_l2(got, ref), 1e-5) << "n=" << n;
  }
}

TEST(NBodyCpu, StepConservesMomentum) {
  Params p;
  NBodyCpu sim(64);
  sim.reset(Initial::Sphere, p, 5);
  // Give the system a net drift so "conserved" is not just "stays zero".
  std::vector<float4> vel = sim.velocities();
  Bodies b{sim.vbo(), vel};
  for (auto& v : b.vel) v.x += 0.25f;
  sim.load(b);
  const Momentum start = momentum(sim.velocities());
  double scale = 0;  // sum of m |v|: the size of the terms that cancel
  for (const float4& v : sim.velocities())
    scale += v.w * std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
  double moved = 0;
  for (int s = 0; s < 50; ++s) sim.step(p);
  for (size_t i = 0; i < 64; ++i) moved += std::fabs(sim.vbo()[i].x - b.pos[i].x);
  EXPECT_GT(moved, 1e-3);  // the bodies did move
  const Momentum end = momentum(sim.velocities());
  EXPECT_NEAR(start.x, 0.25, 1e-6);
  EXPECT_NEAR(end.x, start.x, 1e-6 * scale);
  EXPECT_NEAR(end.y, start.y, 1e-6 * scale);
  EXPECT_NEAR(end.z, start.z, 1e-6 * scale);
}

TEST(NBodyCpu, TwoBodyCircularOrbitStaysBound) {
  Params p;
  p.softening = 1e-3f;
  p.dt = 5e-3f;
  const double eps2 = 1e-6,
               pull = 0.5 / std::pow(1.0 + eps2, 1.5);        // each body's acceleration at r = 1
  const float v = static_cast<float>(std::sqrt(0.5 * pull));  // v^2 / 0.5 = pull
  NBodyCpu sim(2);
  sim.load(two_body(1.f, 0.5f, v));
  const Energy e0 = sim.energy(p);
  EXPECT_NEAR(e0.potential, -0.25, 1e-5);
  EXPECT_NEAR(e0.kinetic, 0.5 * v * v, 1e-7);
  ASSERT_LT(e0.total(), 0.0);
  const double period = 2.0 * M_PI * 0.5 / v;
  const int steps = static_cast<int>(5 * period / p.dt);
  int crossings = 0;
  float prev_x = sim.vbo()[0].x;
  double r_min = 1, r_max = 1;
  for (int s = 0; s < steps; ++s) {
    sim.step(p);
    const float4 a = sim.vbo()[0], b = sim.vbo()[1];
    const double r =
        std::sqrt(std::pow(b.x - a.x, 2) + std::pow(b.y - a.y, 2) + std::pow(b.z - a.z, 2));
    r_min = std::min(r_min, r);
    r_max = std::max(r_max, r);
    if ((a.x < 0) != (prev_x < 0)) ++crossings;
    prev_x = a.x;
  }
  EXPECT_GT(r_min, 0.99);
  EXPECT_LT(r_max, 1.01);
  EXPECT_GE(crossings, 9);  // five turns: ten crossings of x = 0 (the last may fall just after)
  const Energy e1 = sim.energy(p);
  EXPECT_LT(e1.total(), 0.0);
  EXPECT_LT(std::fabs(energy_drift(e1, e0)), 1e-3);
}

TEST(NBodyCpu, EnergyOfAPairByHand) {
  Params p;
  p.softening = 0.f;
  p.G = 2.f;
  NBodyCpu sim(2);
  Bodies b;
  b.pos = {make_float4(0, 0, 0, 0), make_float4(0, 2, 0, 0)};
  b.vel = {make_float4(1, 0, 0, 0.5f), make_float4(0, 0, 0, 0.25f)};
  sim.load(b);
  const Energy e = sim.energy(p);
  EXPECT_DOUBLE_EQ(e.kinetic, 0.25);                 // m v^2 / 2
  EXPECT_NEAR(e.potential, -2.0 * 0.125 / 2, 1e-7);  // -G m1 m2 / r
}

TEST(NBodyCpu, ZeroSofteningIsRefusedByNameForForces) {
  Params p;
  p.softening = 0.f;
  NBodyCpu sim(8);
  sim.reset(Initial::Sphere, Params{}, 1);
  try {
    sim.step(p);
    FAIL() << "a step with softening 0 must throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("softening 0"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("must be > 0"), std::string::npos) << e.what();
  }
  EXPECT_THROW(sim.accelerations(p), std::invalid_argument);
  p.softening = 1e-30f;  // squares to 0 in float
  EXPECT_THROW(sim.step(p), std::invalid_argument);
  EXPECT_NO_THROW(sim.energy(p));  // the potential alone is defined for eps = 0
}

TEST(NBodyCpu, CancelledStepLeavesStateUntouched) {
  Params p;
  NBodyCpu sim(300);
  sim.reset(Initial::Disk, p, 2);
  const std::vector<float4> before = sim.vbo();
  std::atomic<bool> cancel{true};
  sim.step(p, &cancel);
  for (size_t i = 0; i < before.size(); ++i) ASSERT_EQ(sim.vbo()[i].x, before[i].x);
  EXPECT_TRUE(sim.accelerations(p, &cancel).empty());
  sim.step(p);
  EXPECT_NE(sim.vbo()[5].x, before[5].x);
}

TEST(NBodyCpu, LoadRejectsWrongCount) {
  NBodyCpu sim(3);
  EXPECT_THROW(sim.load(two_body(1.f, 0.5f, 0.f)), std::invalid_argument);
}

// A force kernel from elsewhere (the student's, through the runner): the
// bodies it reads and the step finished from its accelerations must be the
// twin's own step. G is a power of two, so G * a and the kick by G * dt/2
// round the same way and the two paths agree bit for bit.
TEST(NBodyCpuGiven, StepWithOwnAccelerationsIsTheStep) {
  Params p;
  p.G = 0.5f;
  p.dt = 0.01f;
  const unsigned n = 300;
  NBodyCpu a(n), b(n);
  a.reset(Initial::Galaxies, p, 5);
  b.reset(Initial::Galaxies, p, 5);
  for (int k = 0; k < 3; ++k) {  // the first kick is half a step, the later ones whole
    a.step(p);
    std::vector<float4> acc = b.accelerations(p);  // G a
    for (float4& v : acc) v = make_float4(v.x / p.G, v.y / p.G, v.z / p.G, 0.f);
    b.step_with(acc.data(), p);
  }
  for (unsigned i = 0; i < n; ++i) {
    ASSERT_EQ(a.vbo()[i].x, b.vbo()[i].x) << i;
    ASSERT_EQ(a.vbo()[i].y, b.vbo()[i].y) << i;
    ASSERT_EQ(a.vbo()[i].z, b.vbo()[i].z) << i;
    ASSERT_EQ(a.vbo()[i].w, b.vbo()[i].w) << i;
    ASSERT_EQ(a.velocities()[i].x, b.velocities()[i].x) << i;
  }
}

TEST(NBodyCpuGiven, BodiesCarryTheMassesThenZeroMassPadding) {
  Params p;
  NBodyCpu sim(50);
  sim.reset(Initial::Sphere, p, 3);
  const std::vector<float4> body = sim.bodies(1024);
  ASSERT_EQ(body.size(), 50u + 1024u);
  for (unsigned i = 0; i < 50; ++i) {
    EXPECT_EQ(body[i].x, sim.vbo()[i].x);
    EXPECT_EQ(body[i].z, sim.vbo()[i].z);
    EXPECT_EQ(body[i].w, sim.velocities()[i].w);
    EXPECT_GT(body[i].w, 0.f);
  }
  for (size_t i = 50; i < body.size(); ++i) EXPECT_EQ(body[i].w, 0.f) << i;
}

TEST(NBodyCpuGiven, RejectsZeroSoftening) {
  Params p;
  NBodyCpu sim(4);
  sim.reset(Initial::Sphere, p, 3);
  std::vector<float4> acc(4, make_float4(0.f, 0.f, 0.f, 0.f));
  p.softening = 0.f;
  EXPECT_THROW(sim.step_with(acc.data(), p), std::invalid_argument);
}
