// The counting / summing lab's math and CPU twins against straightforward references.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <random>
#include <vector>

#include "labs/reduce/reduce.h"
#include "labs/reduce/reduce_math.h"

using namespace cv::reduce;

namespace {
int64_t ref_count3(const std::vector<int32_t>& a) {
  int64_t c = 0;
  for (int32_t v : a) c += (v % 3 == 0);
  return c;
}
int64_t ref_sum(const std::vector<int32_t>& a) {
  int64_t s = 0;
  for (int32_t v : a) s += v;
  return s;
}
std::vector<std::vector<int32_t>> edge_inputs() {
  std::vector<std::vector<int32_t>> in;
  in.push_back({});
  in.push_back({INT32_MIN});
  in.push_back({INT32_MAX, INT32_MAX});
  in.push_back(std::vector<int32_t>(1000, 0));
  in.push_back(std::vector<int32_t>((1 << 20) + 3, INT32_MAX));  // sum ~2^51: 32 bits would wrap
  in.push_back(std::vector<int32_t>((1 << 20) + 5, INT32_MIN));
  std::vector<int32_t> mixed;
  for (int i = 0; i < 100001; ++i)
    mixed.push_back(i % 3 == 0 ? INT32_MIN : (i % 3 == 1 ? INT32_MAX : -3));
  in.push_back(mixed);
  std::vector<int32_t> dup(77777, -2147483646);  // a multiple of 3, repeated
  in.push_back(dup);
  std::mt19937 rng(3);
  std::vector<int32_t> rnd((1 << 22) + 9);  // crosses the CPU chunking
  for (auto& v : rnd) v = static_cast<int32_t>(rng());
  in.push_back(rnd);
  return in;
}
}  // namespace

TEST(ReduceMath, MultipleOf3MatchesModuloEverywhereItMatters) {
  for (int64_t v = INT32_MIN; v < INT32_MIN + 100000; ++v)
    ASSERT_EQ(is_multiple_of_3(static_cast<int32_t>(v)), v % 3 == 0) << v;
  for (int64_t v = INT32_MAX; v > INT32_MAX - 100000; --v)
    ASSERT_EQ(is_multiple_of_3(static_cast<int32_t>(v)), v % 3 == 0) << v;
  for (int64_t v = -100000; v <= 100000; ++v)
    ASSERT_EQ(is_multiple_of_3(static_cast<int32_t>(v)), v % 3 == 0) << v;
  std::mt19937 rng(1);
  for (int i = 0; i < 1000000; ++i) {
    const int32_t v = static_cast<int32_t>(rng());
    ASSERT_EQ(is_multiple_of_3(v), v % 3 == 0) << v;
  }
}

TEST(ReduceCpu, SerialAndThreadedEqualReferencesOnEverySimdPath) {
  for (cv::SimdPath path : {cv::SimdPath::Baseline, cv::SimdPath::Avx2}) {
    if (!cv::simd_supported(path)) continue;
    for (const auto& a : edge_inputs()) {
      const std::string where = std::string(cv::to_string(path)) + " n=" + std::to_string(a.size());
      EXPECT_EQ(cpu_serial(Op::Count3, a.data(), a.size(), nullptr, path), ref_count3(a)) << where;
      EXPECT_EQ(cpu_threads(Op::Count3, a.data(), a.size(), nullptr, path), ref_count3(a)) << where;
      EXPECT_EQ(cpu_serial(Op::Sum, a.data(), a.size(), nullptr, path), ref_sum(a)) << where;
      EXPECT_EQ(cpu_threads(Op::Sum, a.data(), a.size(), nullptr, path), ref_sum(a)) << where;
    }
    const std::vector<int32_t> big((1 << 20) + 3, INT32_MAX);
    EXPECT_EQ(cpu_threads(Op::Sum, big.data(), big.size(), nullptr, path),
              int64_t{INT32_MAX} * big.size());
    // Counts are kept in 32 bits per range: more hits than one range holds.
    const std::vector<int32_t> zeros((size_t{5} << 20) + 7, 0);
    EXPECT_EQ(cpu_serial(Op::Count3, zeros.data(), zeros.size(), nullptr, path),
              static_cast<int64_t>(zeros.size()));
    EXPECT_EQ(cpu_threads(Op::Count3, zeros.data(), zeros.size(), nullptr, path),
              static_cast<int64_t>(zeros.size()));
  }
}

TEST(ReduceCpu, MakeDataIsDeterministicAndSpread) {
  const auto a = make_data(300000, 1), b = make_data(300000, 1), c = make_data(300000, 2);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  const double third = static_cast<double>(ref_count3(a)) / a.size();
  EXPECT_NEAR(third, 1.0 / 3, 0.01);
  int32_t lo = INT32_MAX, hi = INT32_MIN;
  for (int32_t v : a) lo = std::min(lo, v), hi = std::max(hi, v);
  EXPECT_LT(lo, -2000000000);
  EXPECT_GT(hi, 2000000000);
  EXPECT_EQ(make_data(5, 1),
            std::vector<int32_t>(a.begin(), a.begin() + 5));  // a prefix: pure function of index
}

// The verdict's references draw each value where they count it: the same
// answers as over make_data's array, at sizes that end mid-chunk.
TEST(ReduceCpu, TotalsOverGeneratedValuesEqualTotalsOverTheArray) {
  for (size_t n : {size_t{0}, size_t{1}, size_t{31}, size_t{997}, (size_t{1} << 18) + 5, size_t{3} << 20})
    for (uint64_t seed : {uint64_t{1}, uint64_t{0x9e3779b97f4a7c15ull}}) {
      const auto a = make_data(n, seed);
      EXPECT_EQ(cpu_threads_generated(Op::Count3, n, seed), ref_count3(a)) << n << " " << seed;
      EXPECT_EQ(cpu_threads_generated(Op::Sum, n, seed), cpu_serial(Op::Sum, a.data(), a.size())) << n;
    }
}

TEST(ReduceVariants, Names) {
  for (Variant v : all_variants()) EXPECT_EQ(parse_variant(to_string(v)), v);
  EXPECT_FALSE(parse_variant("slow"));
  EXPECT_STREQ(to_string(Op::Count3), "count3");
  EXPECT_STREQ(to_string(Op::Sum), "reduce");
  EXPECT_FALSE(is_gpu(Variant::CpuThreads));
  EXPECT_TRUE(is_gpu(Variant::Racy));
}

// A lab cancelled while its data is being made stops generating (the
// cancel must land within a second on a busy machine, even at 2^30 values).
TEST(ReduceData, GenerationStopsWhenCancelled) {
  const std::atomic<bool> cancel{true};
  const auto v = cv::reduce::make_data(size_t{1} << 20, 1, &cancel);
  ASSERT_EQ(v.size(), size_t{1} << 20);
  EXPECT_EQ(std::count(v.begin(), v.end(), 0), static_cast<long>(v.size()))
      << "values were generated after the cancel";
  const std::atomic<bool> go{false};
  EXPECT_EQ(cv::reduce::make_data(1000, 1, &go), cv::reduce::make_data(1000, 1));
}
