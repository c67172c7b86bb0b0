// Every GPU co-related-ids variant equals the CPU count exactly, over several
// block shapes including odd ones.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "common/cuda_resources.h"
#include "gpu_test_util.h"
#include "labs/corelated/corelated.h"

namespace {

using namespace cv::corelated;

const std::vector<cv::BlockShape> kShapes{{1, 1, 1},  {7, 13, 1}, {16, 16, 1},
                                          {32, 8, 1}, {33, 1, 1}, {64, 1, 1}};
// Sanitizer run: a 1-thread block, an odd 2D tile, a 2D tile and an odd 1D block.
const std::vector<cv::BlockShape> kSanitizerShapes{{1, 1, 1}, {7, 13, 1}, {32, 8, 1}, {33, 1, 1}};
const std::vector<cv::BlockShape>& shapes() {
  return cv::sanitizer_run() ? kSanitizerShapes : kShapes;
}
const std::vector<Variant> kGpu{Variant::Atomic, Variant::Shared, Variant::Launch1d,
                                Variant::Launch2d, Variant::Fast};

void check_all(const Rows& rows, int threshold, const char* what) {
  const uint64_t ref = count_cpu(rows, threshold);
  ASSERT_EQ(ref, count_reference(rows, threshold)) << what;
  CorelatedGpu g(rows);
  cv::CudaStream s;
  for (const auto& b : shapes())
    for (Variant v : kGpu) {
      g.run(v, threshold, b, s.get());
      EXPECT_EQ(g.result(s.get()), ref)
          << what << " " << to_string(v) << " " << cv::to_string(b) << " th " << threshold;
    }
}

TEST(CorelatedGpu, GeneratedRowsAllVariantsAllShapes) {
  CV_REQUIRE_GPU();
  const bool san = cv::sanitizer_run();  // fewer rows (the work grows with their square)
  for (int th : {0, 2, 4}) {
    check_all(generate_rows(2), th, "two rows");
    check_all(generate_rows(san ? 40 : 150, 64, 4096, 5), th, san ? "40 rows" : "150 rows");
    check_all(generate_rows(san ? 25 : 97, 100, 700, 6), th, "long rows, heavy overlap");
  }
  check_all(generate_rows(0), 2, "no rows");
  check_all(generate_rows(1), 2, "one row");
}

TEST(CorelatedGpu, RaggedRowsWithEmptyOnes) {
  CV_REQUIRE_GPU();
  std::mt19937 gen(3);
  std::vector<int32_t> values;
  std::vector<size_t> offsets{0};
  for (int row = 0; row < 200; ++row) {
    const int len = static_cast<int>(gen() % 40);
    for (int k = 0; k < len; ++k) values.push_back(static_cast<int32_t>(gen() % 64) - 32);
    offsets.push_back(values.size());
  }
  const Rows r = make_rows(values, offsets);
  for (int th : {0, 1, 3, 8}) check_all(r, th, "ragged");
}

TEST(CorelatedGpu, FastUsesBitsetsOrMergeByIdCount) {
  CV_REQUIRE_GPU();
  // Sanitizer run: fewer, longer rows, still over 65536 distinct ids (30 rows, 20 of them
  // 3400 ids: ~68,000), and 80 rows for bitsets.
  const bool san = cv::sanitizer_run();
  const int rows = san ? 30 : 300, per_row = san ? 3400 : 400;
  const Rows few = generate_rows(san ? 80 : 300, 64, 4096, 12);
  EXPECT_TRUE(CorelatedGpu(few).fast_uses_bitsets());
  // 300 rows, 200 of them 400 random ids over the whole int32 range: ~80,000 distinct ids, too
  // many for bitsets, so fast merges; overlaps come from copying rows.
  std::mt19937 gen(4);
  std::vector<int32_t> values;
  std::vector<size_t> offsets{0};
  for (int row = 0; row < rows; ++row) {
    if (row % 3 == 2) {  // a near-copy of the previous row
      const size_t b = offsets[offsets.size() - 2], e = offsets.back();
      for (size_t x = b; x < e; x += 1 + row % 5) values.push_back(values[x]);
    } else {
      for (int k = 0; k < per_row; ++k) values.push_back(static_cast<int32_t>(gen()));
    }
    offsets.push_back(values.size());
  }
  const Rows many = make_rows(values, offsets);
  CorelatedGpu g(many);
  EXPECT_FALSE(g.fast_uses_bitsets());
  cv::CudaStream s;
  for (int th : {0, 2, 50}) {
    const uint64_t ref = count_cpu(many, th);
    for (const auto& b : shapes()) {
      g.run(Variant::Fast, th, b, s.get());
      EXPECT_EQ(g.result(s.get()), ref) << cv::to_string(b) << " th " << th;
    }
  }
  for (int th : {0, 2, 5}) check_all(few, th, "bitsets");
}

TEST(CorelatedGpu, ClassroomSize) {
  CV_REQUIRE_GPU();
  const Rows r = generate_rows(cv::sanitizer_run() ? 600 : 3000);  // sanitizer run: 1/25 the pairs
  const uint64_t ref = count_cpu(r, 2);
  CorelatedGpu g(r);
  cv::CudaStream s;
  for (Variant v : kGpu) {
    g.run(v, 2, {128, 1, 1}, s.get());
    EXPECT_EQ(g.result(s.get()), ref) << to_string(v);
  }
}

TEST(CorelatedGpu, BadShapesAreRefused) {
  CV_REQUIRE_GPU();
  CorelatedGpu g(generate_rows(10));
  cv::CudaStream s;
  EXPECT_THROW(g.run(Variant::Launch2d, 2, {8, 8, 2}, s.get()), std::invalid_argument);
  EXPECT_THROW(g.run(Variant::Shared, 2, {2048, 1, 1}, s.get()), std::invalid_argument);
  EXPECT_THROW(g.run(Variant::Cpu, 2, {16, 16, 1}, s.get()), std::invalid_argument);
  EXPECT_THROW(g.run(Variant::Fast, 2, {8, 8, 2}, s.get()), std::invalid_argument);  // bitset tile
  EXPECT_THROW(g.run(Variant::Fast, -1, {16, 16, 1}, s.get()), std::invalid_argument);
}

}  // namespace
