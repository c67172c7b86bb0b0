// The pi lab's per-sample math and CPU twins against straightforward references.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "labs/pi/pi.h"
#include "labs/pi/pi_math.h"
#include "labs/pi/pi_points.h"

using namespace cv::pi;

namespace {
// One sample, the long way: its call, its 21-bit cells taken from the 128
// bits by hand, the test in double precision (exact: 44-bit products).
bool reference_inside(uint64_t seed, uint64_t s) {
  const Words4 r = philox4x32_10(
      Words4{{static_cast<uint32_t>(s / 3), static_cast<uint32_t>((s / 3) >> 32), 0, 0}},
      static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32));
  uint32_t cx, cy;
  switch (s % 3) {
    case 0:
      cx = r.w[0] / 2048, cy = r.w[1] / 2048;
      break;
    case 1:
      cx = r.w[2] / 2048, cy = r.w[3] / 2048;
      break;
    default:
      cx = (r.w[0] % 2048) * 1024 + (r.w[1] % 2048) / 2;
      cy = (r.w[2] % 2048) * 1024 + (r.w[3] % 2048) / 2;
  }
  const double x = (2.0 * cx + 1) / 4194304.0, y = (2.0 * cy + 1) / 4194304.0;
  return x * x + y * y < 1.0;
}
uint64_t reference_hits(uint64_t seed, uint64_t n) {
  uint64_t h = 0;
  for (uint64_t s = 0; s < n; ++s) h += reference_inside(seed, s);
  return h;
}
}  // namespace

// Known-answer vectors of Random123 (kat_vectors, philox4x32 10 rounds).
TEST(PiMath, PhiloxKnownAnswers) {
  Words4 r = philox4x32_10(Words4{{0, 0, 0, 0}}, 0, 0);
  EXPECT_EQ(r.w[0], 0x6627e8d5u);
  EXPECT_EQ(r.w[1], 0xe169c58du);
  EXPECT_EQ(r.w[2], 0xbc57ac4cu);
  EXPECT_EQ(r.w[3], 0x9b00dbd8u);
  r = philox4x32_10(Words4{{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}}, 0xffffffffu,
                    0xffffffffu);
  EXPECT_EQ(r.w[0], 0x408f276du);
  EXPECT_EQ(r.w[1], 0x41c83b0eu);
  EXPECT_EQ(r.w[2], 0xa20bc7c6u);
  EXPECT_EQ(r.w[3], 0x6d5451fdu);
  r = philox4x32_10(Words4{{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}}, 0xa4093822u,
                    0x299f31d0u);
  EXPECT_EQ(r.w[0], 0xd16cfe09u);
  EXPECT_EQ(r.w[1], 0x94fdccebu);
  EXPECT_EQ(r.w[2], 0x5001e420u);
  EXPECT_EQ(r.w[3], 0x24126ea1u);
}

TEST(PiMath, InsideIsExactAtTheBoundaryAndCorners) {
  const uint32_t top = (1u << 21) - 1;
  EXPECT_TRUE(inside(0, 0));
  EXPECT_FALSE(inside(top, top));
  EXPECT_TRUE(inside(top, 0));      // (2^22-1)^2 + 1 < 2^44
  EXPECT_TRUE(inside(top, 1447));   // + 2895^2 = 8381025 < 2^23 - 1: inside by a hair
  EXPECT_FALSE(inside(top, 1449));  // + 2899^2 = 8404201 > 2^23 - 1: outside by a hair
  EXPECT_EQ(unit_coord(0), 1.0f / 4194304.0f);
  EXPECT_EQ(unit_coord(top), 1.0f - 1.0f / 4194304.0f);
  // Random cells, and cells hugging the circle (where the float fast path defers to the exact
  // test).
  uint64_t x = 12345;
  for (int i = 0; i < 200000; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const uint32_t a = static_cast<uint32_t>(x >> 43), b = static_cast<uint32_t>(x >> 11) & top;
    const double fx = unit_coord(a), fy = unit_coord(b);
    ASSERT_EQ(inside(a, b), fx * fx + fy * fy < 1.0) << a << " " << b;
    ASSERT_EQ(inside_exact(a, b), fx * fx + fy * fy < 1.0) << a << " " << b;
    const double edge = std::sqrt(std::max(0.0, 1.0 - fx * fx)) * 2097152.0 - 0.5;
    for (int d = -2; d <= 2; ++d) {
      const long long c = static_cast<long long>(edge) + d;
      if (c < 0 || c > top) continue;
      const double fc = unit_coord(static_cast<uint32_t>(c));
      ASSERT_EQ(inside(a, static_cast<uint32_t>(c)), fx * fx + fc * fc < 1.0) << a << " " << c;
    }
  }
}

TEST(PiMath, CoordsUseEveryBitOnce) {
  // Each of the 126 used bits moves exactly one coordinate; the two unused ones none.
  for (int w = 0; w < 4; ++w)
    for (int bit = 0; bit < 32; ++bit) {
      Words4 r{{0, 0, 0, 0}};
      r.w[w] = 1u << bit;
      int moved = 0;
      for (unsigned slot = 0; slot < 3; ++slot) {
        uint32_t cx, cy;
        coords(r, slot, &cx, &cy);
        moved += (cx != 0) + (cy != 0);
        EXPECT_LT(cx, 1u << 21);
        EXPECT_LT(cy, 1u << 21);
      }
      EXPECT_EQ(moved, (bit == 0 && (w == 1 || w == 3)) ? 0 : 1) << w << " " << bit;
    }
}

TEST(PiMath, CountRangeMatchesPerSampleReferenceOnAnyRange) {
  for (uint64_t b : {0u, 1u, 2u, 7u})
    for (uint64_t e : {0u, 1u, 2u, 3u, 8u, 1001u}) {
      if (e < b) continue;
      uint64_t want = 0;
      for (uint64_t s = b; s < e; ++s) want += reference_inside(99, s);
      EXPECT_EQ(count_range(99, b, e), want) << b << ".." << e;
    }
}

TEST(PiCpu, SerialAndThreadedEqualTheReference) {
  for (uint64_t n : {0ull, 1ull, 2ull, 3ull, 1000ull, (1ull << 20) + 3, 3000001ull}) {
    const uint64_t want = reference_hits(7, n);
    EXPECT_EQ(cpu_serial(n, 7), want) << n;
    EXPECT_EQ(cpu_threads(n, 7), want) << n;
  }
}

TEST(PiCpu, EstimateWithinStatisticalBound) {
  const uint64_t n = 1ull << 24;
  for (uint64_t seed : {1ull, 2ull, 20240521ull}) {
    const double est = estimate(cpu_threads(n, seed), n);
    EXPECT_TRUE(within_bound(est, n)) << est;
    EXPECT_NEAR(est, M_PI, 5 * sigma(n));
  }
  // Different streams give different samples.
  EXPECT_NE(cpu_threads(100000, 1), cpu_threads(100000, 2));
}

TEST(PiCpu, BoundAndEstimateHelpers) {
  EXPECT_DOUBLE_EQ(estimate(3, 4), 3.0);
  EXPECT_EQ(estimate(0, 0), 0.0);
  EXPECT_NEAR(sigma(1), 4 * std::sqrt(M_PI / 4 * (1 - M_PI / 4)), 1e-12);
  EXPECT_TRUE(within_bound(M_PI, 100));
  EXPECT_FALSE(within_bound(3.0, 100000000));  // 3.0 is ~3000 sigma off at 1e8
  EXPECT_FALSE(within_bound(M_PI, 0));         // no samples: no claim
}

TEST(PiCpu, CancelStopsEarly) {
  std::atomic<bool> cancel{true};
  EXPECT_EQ(cpu_serial(1ull << 40, 1, &cancel), 0u);
  EXPECT_EQ(cpu_threads(1ull << 30, 1, &cancel), 0u);
}

TEST(PiVariants, NamesAndBlocks) {
  for (Variant v : all_variants()) EXPECT_EQ(parse_variant(to_string(v)), v);
  EXPECT_FALSE(parse_variant("nope"));
  EXPECT_EQ(effective_block(Variant::OnePerBlock, {256, 1, 1}), (cv::BlockShape{1, 1, 1}));
  EXPECT_EQ(effective_block(Variant::Warp32, {256, 1, 1}), (cv::BlockShape{32, 1, 1}));
  EXPECT_EQ(effective_block(Variant::Fast, {8, 4, 2}), (cv::BlockShape{8, 4, 2}));
  EXPECT_FALSE(is_gpu(Variant::CpuSerial));
  EXPECT_TRUE(is_gpu(Variant::Original));
}

TEST(PiPoints, CpuPointsAreTheLabSamples) {
  for (unsigned count : {0u, 1u, 2u, 3u, 1001u}) {
    std::vector<float4> pts(count + 1, float4{-1, -1, -1, -1});
    write_points_cpu(pts.data(), count, 5);
    uint64_t hits = 0;
    for (unsigned i = 0; i < count; ++i) {
      const float4 p = pts[i];
      ASSERT_GT(p.x, 0.f);
      ASSERT_LT(p.x, 1.f);
      ASSERT_GT(p.y, 0.f);
      ASSERT_LT(p.y, 1.f);
      ASSERT_EQ(p.z, 0.f);
      ASSERT_EQ(p.w, reference_inside(5, i) ? 1.f : 0.f) << i;
      ASSERT_EQ(static_cast<double>(p.x) * p.x + static_cast<double>(p.y) * p.y < 1.0,
                p.w == 1.f);  // exact
      hits += p.w == 1.f;
    }
    EXPECT_EQ(hits, cpu_serial(count, 5));
    EXPECT_EQ(pts[count].x, -1.f) << "wrote past count";
  }
}
