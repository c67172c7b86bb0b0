// The CPU twins' thread pool: every index once, exceptions surfaced, and many
// back-to-back jobs (the per-frame pattern) without a lost or stale worker.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

#include "common/parallel_for.h"

TEST(ParallelFor, CoversEveryIndexExactlyOnce) {
  for (size_t n : {size_t(1), size_t(2), size_t(15), size_t(16), size_t(17), size_t(1000003)}) {
    std::vector<std::atomic<int>> hits(n);
    std::atomic<size_t> calls{0};
    cv::parallel_for(n, [&](size_t b, size_t e) {
      ASSERT_LT(b, e);
      ASSERT_LE(e, n);
      ++calls;
      for (size_t i = b; i < e; ++i) ++hits[i];
    });
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(hits[i].load(), 1) << "n=" << n << " i=" << i;
    EXPECT_LE(calls.load(), n);
  }
}

TEST(ParallelFor, ZeroIsANoOp) {
  bool called = false;
  cv::parallel_for(0, [&](size_t, size_t) { called = true; });
  EXPECT_FALSE(called);
}

TEST(ParallelFor, RethrowsTheBodysException) {
  for (size_t n : {size_t(1), size_t(1000)}) {
    EXPECT_THROW(cv::parallel_for(n,
                                  [&](size_t b, size_t) {
                                    if (b == 0) throw std::runtime_error("chunk 0");
                                  }),
                 std::runtime_error);
  }
  // The pool still works afterwards.
  std::atomic<size_t> sum{0};
  cv::parallel_for(100, [&](size_t b, size_t e) { sum += e - b; });
  EXPECT_EQ(sum.load(), 100u);
}

TEST(ParallelFor, ManyShortJobsInARow) {
  std::vector<int> v(64, 0);
  for (int k = 0; k < 20000; ++k)
    cv::parallel_for(v.size(), [&](size_t b, size_t e) {
      for (size_t i = b; i < e; ++i) ++v[i];
    });
  for (int x : v) ASSERT_EQ(x, 20000);
  EXPECT_GE(cv::cpu_threads(), 1u);
}
