// The splatter's per-particle math: projection to pixels, table occlusion,
// packing of hits, and the resolve to colour.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "splat/splat.h"

namespace {
using namespace cv::splat;

// An orthographic-like view: identity matrix maps x, y in [-1, 1] to the screen.
View identity_view(int w, int h) {
  View v{};
  for (int i = 0; i < 16; ++i) v.m[i] = (i % 5 == 0) ? 1.f : 0.f;
  v.eye[0] = 0;
  v.eye[1] = 10;
  v.eye[2] = 0;
  v.table_radius = 0;
  v.scalar_scale = 1;
  v.hide_below = -100;
  v.width = w;
  v.height = h;
  return v;
}

TEST(SplatMath, ProjectsToTheExpectedPixel) {
  const View v = identity_view(100, 50);
  EXPECT_EQ(pixel_of(0.f, 0.f, 0.f, v), 25 * 100 + 50);        // centre
  EXPECT_EQ(pixel_of(-1.f, -1.f, 0.f, v), 0);                  // bottom-left corner, row 0 at the bottom
  EXPECT_EQ(pixel_of(0.99f, 0.99f, 0.f, v), 49 * 100 + 99);    // top-right pixel
  EXPECT_EQ(pixel_of(1.01f, 0.f, 0.f, v), -1);                 // off screen
  EXPECT_EQ(pixel_of(0.f, 0.f, 1.5f, v), -1);                  // beyond the far plane
}

TEST(SplatMath, RejectsParkedNanAndBehindTheCamera) {
  View v = identity_view(10, 10);
  v.hide_below = -5.f;
  EXPECT_EQ(pixel_of(0.f, -6.f, 0.f, v), -1);
  EXPECT_EQ(pixel_of(std::nanf(""), 0.f, 0.f, v), -1);
  EXPECT_EQ(pixel_of(0.f, std::nanf(""), 0.f, v), -1);
  v.m[15] = -1.f;  // w < 0: behind the camera
  EXPECT_EQ(pixel_of(0.f, 0.f, 0.f, v), -1);
}

TEST(SplatMath, TableHidesWhatIsBelowItFromAbove) {
  View v = identity_view(10, 10);
  v.table_radius = 1.f;
  v.eye[0] = 0;
  v.eye[1] = 4;
  v.eye[2] = 0;
  v.m[0] = 0.1f;  // keep |x| <= 10 and |y| <= 10 on screen
  v.m[5] = 0.1f;
  EXPECT_EQ(pixel_of(0.2f, -0.5f, 0.f, v), -1);  // straight below the disc: hidden
  EXPECT_GE(pixel_of(0.2f, 0.5f, 0.f, v), 0);    // above it: visible
  // Below the plane but seen past the rim: the crossing at y = 0 lies outside r = 1.
  EXPECT_GE(pixel_of(3.f, -4.f, 0.f, v), 0);   // crosses at x = 1.5
  EXPECT_EQ(pixel_of(1.8f, -4.f, 0.f, v), -1);  // crosses at x = 0.9: hidden
  v.eye[1] = -4;  // camera under the table: what is above is hidden
  EXPECT_EQ(pixel_of(0.2f, 0.5f, 0.f, v), -1);
  EXPECT_GE(pixel_of(0.2f, -0.5f, 0.f, v), 0);
}

TEST(SplatMath, AccumulatesHitsAndMeanPalettePosition) {
  const View v = identity_view(4, 4);
  const float4 pts[] = {{0.1f, 0.1f, 0.f, 0.f}, {0.2f, 0.2f, 0.f, 1.f}, {-0.9f, -0.9f, 0.f, 0.5f},
                        {5.f, 5.f, 0.f, 1.f}};
  const auto acc = accumulate_cpu(pts, 4, v);
  const size_t centre = 2 * 4 + 2, corner = 0;
  EXPECT_EQ(acc[centre] >> kSumBits, 2u);
  EXPECT_EQ(acc[centre] & kSumMask, 255u);  // 0 + 255
  EXPECT_EQ(acc[corner] >> kSumBits, 1u);
  EXPECT_EQ(acc[corner] & kSumMask, 128u);  // 0.5 * 255 rounded
  uint64_t total = 0;
  for (uint64_t a : acc) total += a >> kSumBits;
  EXPECT_EQ(total, 3u);  // the off-screen one is dropped
}

TEST(SplatMath, ResolveSaturatesAndKeepsThePalette) {
  EXPECT_EQ(resolve(0, 0, 0.25f).a, 0);
  const Rgba8 one = resolve(kOneHit | 0, 0, 0.25f);  // age 0: white in the fountain palette
  const Rgba8 many = resolve(1000 * kOneHit, 0, 0.25f);
  EXPECT_GT(one.a, 0);
  EXPECT_LT(one.a, many.a);
  EXPECT_EQ(many.a, 255);
  EXPECT_EQ(many.r, 255);
  EXPECT_EQ(many.g, 255);
  const Rgba8 old = resolve(1000 * kOneHit + 1000 * 255, 0, 0.25f);  // age 1: red
  EXPECT_EQ(old.r, 255);
  EXPECT_EQ(old.b, 0);
  EXPECT_NEAR(old.g, 128, 1);
}

// Colours survive many particles. The exposure puts a pixel of mean
// density at 70% brightness whatever the count, and resolve keeps the hue of
// the particles' mean palette position however many land on a pixel.
TEST(SplatMath, ExposureScalesWithCountSoMeanDensityStaysUnsaturated) {
  const double px = 1228.0 * 1032.0;  // the fountain's view at 1920x1080
  float last = 1e9f;
  for (double n : {65536.0, 1048576.0, 4194304.0, 16777216.0}) {
    const float g = exposure(n, px, 2.5f);
    EXPECT_LE(g, last);  // more particles, less light each
    last = g;
    const double mean_hits = n / (kCoverage * px);
    if (g < 2.5f) EXPECT_NEAR(1.0 - std::exp(-g * mean_hits), 1.0 - std::exp(-kMeanLevel), 1e-4);
    const auto hits = static_cast<uint64_t>(std::max(1.0, mean_hits));
    // Old particles (t = 1) at mean density: the fountain's orange, not white.
    const Rgba8 old = resolve(hits * kOneHit + hits * 255, 0, g);
    EXPECT_LT(old.a, 250) << n;
    EXPECT_GT(old.a, 60) << n;
    EXPECT_EQ(old.b, 0) << n;
    EXPECT_NEAR(2.0 * old.g, old.r, 2.0) << n;  // (1, 0.5, 0) at any brightness
  }
  EXPECT_FLOAT_EQ(exposure(10, px, 2.5f), 2.5f);  // sparse: capped, a lone particle translucent
  EXPECT_FLOAT_EQ(exposure(0, px, 2.5f), 2.5f);
}

}  // namespace
