// 3SUM CPU twins against the loop-as-written reference, on random and edge data;
// the grid-usage numbers against a thread-by-thread count.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <cstdint>
#include <random>
#include <vector>

#include "labs/sum3/sum3.h"
#include "labs/sum3/sum3_math.h"

namespace {

using cv::sum3::count_cpu;
using cv::sum3::count_cpu_sorted;
using cv::sum3::count_reference;

void expect_all_agree(const std::vector<int32_t>& v, const char* what) {
  const uint64_t ref = count_reference(v.data(), v.size());
  for (cv::SimdPath path : {cv::SimdPath::Baseline, cv::SimdPath::Avx2}) {
    if (!cv::simd_supported(path)) continue;
    EXPECT_EQ(count_cpu(v.data(), v.size(), nullptr, path), ref) << what << " " << to_string(path);
    EXPECT_EQ(cv::sum3::count_cpu_serial(v.data(), v.size(), nullptr, path), ref)
        << what << " " << to_string(path);
  }
  EXPECT_EQ(count_cpu_sorted(v.data(), v.size()), ref) << what;
}

TEST(Sum3Math, PairTargetIsExactAndRefusesOutOfRange) {
  int32_t t = 0;
  EXPECT_TRUE(cv::sum3::pair_target(3, 4, &t));
  EXPECT_EQ(t, -7);
  // -(INT32_MIN + 0) = 2^31 does not fit: no int32 v_k can complete the pair.
  EXPECT_FALSE(cv::sum3::pair_target(INT32_MIN, 0, &t));
  EXPECT_FALSE(cv::sum3::pair_target(INT32_MIN, -1, &t));
  EXPECT_FALSE(cv::sum3::pair_target(INT32_MAX, INT32_MAX, &t));
  EXPECT_FALSE(cv::sum3::pair_target(INT32_MIN, INT32_MIN, &t));
  EXPECT_TRUE(cv::sum3::pair_target(INT32_MIN + 1, 0, &t));
  EXPECT_EQ(t, INT32_MAX);
  EXPECT_TRUE(cv::sum3::pair_target(1073741824, 1073741824, &t));
  EXPECT_EQ(t, INT32_MIN);
  EXPECT_TRUE(cv::sum3::pair_target(INT32_MAX, INT32_MIN, &t));
  EXPECT_EQ(t, 1);
}

TEST(Sum3Math, TriplesOf) {
  EXPECT_EQ(cv::sum3::triples_of(2), 0.0);
  EXPECT_EQ(cv::sum3::triples_of(3), 1.0);
  EXPECT_EQ(cv::sum3::triples_of(8000), 8000.0 * 7999 * 7998 / 6);
}

TEST(Sum3Cpu, FewerThanThreeValuesGiveZero) {
  for (std::vector<int32_t> v : {std::vector<int32_t>{}, {0}, {0, 0}}) {
    EXPECT_EQ(count_cpu(v.data(), v.size()), 0u);
    EXPECT_EQ(count_cpu_sorted(v.data(), v.size()), 0u);
  }
}

TEST(Sum3Cpu, AllZerosCountEveryTriple) {
  const std::vector<int32_t> v(300, 0);
  EXPECT_EQ(count_cpu(v.data(), v.size()), 300ull * 299 * 298 / 6);
  EXPECT_EQ(count_cpu_sorted(v.data(), v.size()), 300ull * 299 * 298 / 6);
  EXPECT_EQ(count_reference(v.data(), v.size()), 300ull * 299 * 298 / 6);
}

TEST(Sum3Cpu, HandCountedCases) {
  std::vector<int32_t> v{-1, 0, 1, 2, -1, -4};  // (-1,0,1) twice, (-1,2,-1) once
  EXPECT_EQ(count_reference(v.data(), v.size()), 3u);
  expect_all_agree(v, "classic");
  v = {1, 1, -2, 1, -2};  // {1,1,-2}: C(3,2) * 2 = 6
  EXPECT_EQ(count_reference(v.data(), v.size()), 6u);
  expect_all_agree(v, "duplicates");
}

TEST(Sum3Cpu, ExtremesThatWrapIn32BitsDoNotMatch) {
  // INT32_MAX + INT32_MAX + 2 wraps to 0 in 32 bits; in 64 bits it is 2^32.
  std::vector<int32_t> v{INT32_MAX, INT32_MAX, 2};
  EXPECT_EQ(count_reference(v.data(), v.size()), 0u);
  expect_all_agree(v, "max+max+2");
  v = {INT32_MIN, INT32_MIN, 0};  // wraps to 0 in 32 bits
  expect_all_agree(v, "min+min+0");
  EXPECT_EQ(count_cpu(v.data(), v.size()), 0u);
  // Genuine zero sums at the extremes: MIN + MAX + 1 = 0.
  v = {INT32_MIN, INT32_MAX, 1, INT32_MAX, 1, INT32_MIN};
  EXPECT_EQ(count_reference(v.data(), v.size()), 8u);
  expect_all_agree(v, "min+max+1");
}

TEST(Sum3Cpu, RandomExtremeMixtures) {
  std::mt19937 gen(7);
  const int32_t pool[] = {INT32_MIN, INT32_MIN + 1, -1073741824, -2,        -1,           0, 1,
                          2,         1073741824,    1073741823,  INT32_MAX, INT32_MAX - 1};
  for (int round = 0; round < 20; ++round) {
    std::vector<int32_t> v(3 + gen() % 60);
    for (auto& x : v) x = pool[gen() % (sizeof pool / sizeof pool[0])];
    expect_all_agree(v, "extreme pool");
  }
}

TEST(Sum3Cpu, RandomSmallRangeAndWideRange) {
  for (size_t n : {3u, 4u, 17u, 100u, 257u, 400u}) {
    expect_all_agree(cv::sum3::make_data(n), "default range");
    expect_all_agree(cv::sum3::make_data(n, -3, 3, 11), "tiny range, many equal values");
    expect_all_agree(cv::sum3::make_data(n, INT32_MIN, INT32_MAX, 5), "full int32 range");
  }
}

TEST(Sum3Cpu, SortedMatchesBruteForceOnLargerData) {
  const auto v = cv::sum3::make_data(1500, -500, 500, 3);
  EXPECT_EQ(count_cpu_sorted(v.data(), v.size()), count_cpu(v.data(), v.size()));
}

TEST(Sum3Cpu, DefaultDataIsDeterministicAndInRange) {
  const auto a = cv::sum3::make_data(1000), b = cv::sum3::make_data(1000);
  EXPECT_EQ(a, b);
  int lo = 0, hi = 0;
  for (int32_t x : a) {
    EXPECT_GE(x, -100);
    EXPECT_LE(x, 100);
    lo = std::min(lo, x);
    hi = std::max(hi, x);
  }
  EXPECT_EQ(lo, -100);
  EXPECT_EQ(hi, 100);
  EXPECT_NE(cv::sum3::make_data(1000, -100, 100, 1), a);
}

TEST(Sum3Cpu, CancelStopsEarly) {
  const auto v = cv::sum3::make_data(3000);
  std::atomic<bool> cancel{true};
  // Already cancelled: returns at once (the value is meaningless).
  const auto t0 = std::chrono::steady_clock::now();
  count_cpu(v.data(), v.size(), &cancel);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 0.5);
}

// Thread-by-thread: launched threads, upper triangle, working ones and idle blocks.
TEST(Sum3Grid, UsageMatchesEnumeration) {
  for (uint64_t n : {0u, 1u, 2u, 3u, 5u, 16u, 33u, 100u}) {
    for (cv::BlockShape b :
         {cv::BlockShape{1, 1, 1}, {7, 13, 1}, {16, 16, 1}, {32, 8, 1}, {33, 1, 1}, {4, 4, 2}}) {
      const auto g = cv::sum3::grid_usage(n, b);
      uint64_t threads = 0, upper = 0, working = 0, idle_blocks = 0;
      const uint64_t gx = (n + b.x - 1) / b.x, gy = (n + b.y - 1) / b.y;
      for (uint64_t bx = 0; bx < gx; ++bx)
        for (uint64_t by = 0; by < gy; ++by) {
          bool any = false;
          for (uint64_t tx = 0; tx < uint64_t(b.x); ++tx)
            for (uint64_t ty = 0; ty < uint64_t(b.y); ++ty) {
              const uint64_t i = bx * b.x + tx, j = by * b.y + ty;
              threads += b.z;
              if (i < j && j < n) upper += b.z;
              if (i < j && j + 1 < n) {
                working += b.z;
                any = true;
              }
            }
          if (!any) ++idle_blocks;
        }
      EXPECT_EQ(g.threads, threads) << n << " " << cv::to_string(b);
      EXPECT_EQ(g.upper_triangle * b.z, upper) << n << " " << cv::to_string(b);
      EXPECT_EQ(g.working * b.z, working) << n << " " << cv::to_string(b);
      EXPECT_EQ(g.idle_blocks, idle_blocks) << n << " " << cv::to_string(b);
      EXPECT_EQ(g.blocks, gx * gy);
    }
  }
}

TEST(Sum3Variants, NamesRoundTrip) {
  for (auto v : cv::sum3::all_variants())
    EXPECT_EQ(cv::sum3::parse_variant(cv::sum3::to_string(v)), v);
  EXPECT_FALSE(cv::sum3::parse_variant("turbo"));
  EXPECT_FALSE(cv::sum3::is_gpu(cv::sum3::Variant::Cpu));
  EXPECT_TRUE(cv::sum3::is_gpu(cv::sum3::Variant::Fast));
}

}  // namespace
