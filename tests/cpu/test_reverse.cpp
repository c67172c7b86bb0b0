// Vector reversal CPU twins against the definition.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "labs/reverse/reverse.h"

using namespace cv::reverse;

TEST(ReverseCpu, SerialAndThreadedReverse) {
  for (size_t n : {0u, 1u, 2u, 3u, 1001u, (1u << 20) + 7}) {
    std::vector<int32_t> in(n), a(n, -1), b(n, -1);
    std::iota(in.begin(), in.end(), -5);
    reverse_cpu(in.data(), a.data(), n);
    reverse_cpu_threads(in.data(), b.data(), n);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(a[i], in[n - 1 - i]) << n << " " << i;
    EXPECT_EQ(a, b);
    std::vector<int32_t> back(n);
    reverse_cpu_threads(b.data(), back.data(), n);
    EXPECT_EQ(back, in);
  }
}

TEST(ReverseVariants, Names) {
  for (Variant v : all_variants()) EXPECT_EQ(parse_variant(to_string(v)), v);
  EXPECT_TRUE(is_gpu(Variant::Copy));
  EXPECT_FALSE(is_gpu(Variant::CpuSerial));
}
