// Co-related ids: row normalisation, the per-pair math and the threaded CPU
// count against std::set_intersection over every pair.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "labs/corelated/corelated.h"
#include "labs/corelated/corelated_math.h"

namespace {

using namespace cv::corelated;

TEST(CorelatedMath, LinearAndSortedAgree) {
  const std::vector<int32_t> a{1, 3, 5, 7, 9}, b{2, 3, 4, 5, 9, 10};
  EXPECT_EQ(shared_linear(a.data(), 5, b.data(), 6), 3u);
  EXPECT_EQ(shared_sorted(a.data(), 5, b.data(), 6), 3u);
  EXPECT_EQ(shared_sorted(a.data(), 0, b.data(), 6), 0u);
  EXPECT_EQ(shared_linear(a.data(), 5, b.data(), 0), 0u);
  const std::vector<int32_t> c{INT32_MIN, -1, 0, INT32_MAX}, d{INT32_MIN, 0, 1, INT32_MAX};
  EXPECT_EQ(shared_sorted(c.data(), 4, d.data(), 4), 3u);
  EXPECT_EQ(shared_linear(c.data(), 4, d.data(), 4), 3u);
}

TEST(CorelatedMath, PairIndexIsRowMajorUpperTriangle) {
  for (uint64_t rows : {2u, 3u, 7u, 50u}) {
    uint64_t p = 0;
    for (uint64_t r = 0; r < rows; ++r)
      for (uint64_t s = r + 1; s < rows; ++s) EXPECT_EQ(pair_index(rows, r, s), p++);
    EXPECT_EQ(pair_count(rows), p);
  }
}

TEST(CorelatedRows, MakeRowsSortsAndDeduplicates) {
  const Rows r = make_rows({5, 1, 5, 3, 7, 7, 2}, {0, 4, 4, 7});
  ASSERT_EQ(r.rows(), 3u);
  EXPECT_EQ(r.ids, (std::vector<int32_t>{1, 3, 5, 2, 7}));
  EXPECT_EQ(r.offsets, (std::vector<uint32_t>{0, 3, 3, 5}));
  EXPECT_EQ(r.max_length(), 3u);
  EXPECT_THROW(make_rows({1, 2}, {0, 3}), std::invalid_argument);
}

TEST(CorelatedRows, SeedExample) {
  // The document's four rows. Shared ids: 1-2 {5,10,11}, 1-3 {6,10,11}, 2-3 {10,11},
  // 3-4 {10,17}, 2-4 {10}, 1-4 {10}. "More than 2" gives 1-2 and 1-3. (The document's
  // own output table also lists 2-3, which contradicts its rule: with "at least
  // 2", 3-4 would be co-related too, and the table says row 4 has none.)
  const Rows r =
      make_rows({2, 5, 6, 10, 11, 5, 10, 11, 15, 6, 10, 11, 17, 3, 10, 12, 17}, {0, 5, 9, 13, 17});
  EXPECT_EQ(count_reference(r, 2), 2u);
  EXPECT_EQ(count_cpu(r, 2), 2u);
  EXPECT_EQ(count_cpu(r, 1), 4u);
  EXPECT_EQ(count_cpu(r, 0), 6u);
  EXPECT_EQ(count_cpu(r, 3), 0u);
  EXPECT_EQ(count_cpu(r, 0), count_reference(r, 0));
  for (int th : {0, 1, 2, 3}) EXPECT_EQ(count_by_ids(r, th), count_reference(r, th)) << th;
}

TEST(CorelatedRows, GeneratedRowsAreSetsInRange) {
  const Rows r = generate_rows(50, 64, 4096, 9);
  ASSERT_EQ(r.rows(), 50u);
  for (size_t i = 0; i < r.rows(); ++i) {
    ASSERT_EQ(r.length(i), 64u);
    for (uint32_t x = r.offsets[i]; x < r.offsets[i + 1]; ++x) {
      EXPECT_GE(r.ids[x], 1);
      EXPECT_LE(r.ids[x], 4096);
      if (x > r.offsets[i]) EXPECT_LT(r.ids[x - 1], r.ids[x]);
    }
  }
  EXPECT_EQ(generate_rows(50, 64, 4096, 9).ids, r.ids);
  EXPECT_THROW(generate_rows(2, 10, 5), std::invalid_argument);
}

TEST(CorelatedCpu, MatchesReferenceOnRandomAndEdgeData) {
  for (int th : {0, 1, 2, 5}) {
    EXPECT_EQ(count_cpu(generate_rows(0), th), 0u);
    EXPECT_EQ(count_cpu(generate_rows(1), th), 0u);
    for (size_t n : {2u, 3u, 40u, 301u}) {
      const Rows r = generate_rows(n, 32, 512, static_cast<uint32_t>(n + th));
      EXPECT_EQ(count_cpu(r, th), count_reference(r, th)) << n << " rows, threshold " << th;
    }
  }
  // Ragged rows with empty ones, negative ids and heavy overlap.
  std::mt19937 gen(3);
  std::vector<int32_t> values;
  std::vector<size_t> offsets{0};
  for (int row = 0; row < 120; ++row) {
    const int len = static_cast<int>(gen() % 12);
    for (int k = 0; k < len; ++k) values.push_back(static_cast<int32_t>(gen() % 16) - 8);
    offsets.push_back(values.size());
  }
  const Rows r = make_rows(values, offsets);
  for (int th : {0, 1, 3, 6}) EXPECT_EQ(count_cpu(r, th), count_reference(r, th)) << th;
  EXPECT_THROW(count_cpu(r, -1), std::invalid_argument);
}

// The verdict's reference counts through each id's rows: the same count as
// every pair's intersection, on generated, ragged, empty and heavily shared rows.
TEST(CorelatedCpu, CountByIdsMatchesEveryPairsIntersection) {
  for (int th : {0, 1, 2, 5, 64}) {
    EXPECT_EQ(count_by_ids(generate_rows(0), th), 0u);
    EXPECT_EQ(count_by_ids(generate_rows(1), th), 0u);
    for (size_t n : {2u, 3u, 40u, 301u}) {
      const Rows r = generate_rows(n, 32, 512, static_cast<uint32_t>(7 * n + th));
      EXPECT_EQ(count_by_ids(r, th), count_reference(r, th)) << n << " rows, threshold " << th;
    }
  }
  std::mt19937 gen(11);
  std::vector<int32_t> values;
  std::vector<size_t> offsets{0};
  for (int row = 0; row < 150; ++row) {
    const int len = static_cast<int>(gen() % 70);
    for (int k = 0; k < len; ++k) values.push_back(static_cast<int32_t>(gen() % 40) - 20 + (row % 3) * 1000000000);
    offsets.push_back(values.size());
  }
  Rows r = make_rows(values, offsets);
  for (int th : {0, 1, 3, 6, 30}) EXPECT_EQ(count_by_ids(r, th), count_reference(r, th)) << th;
  // Ids past the last row (a span padded to n * 64) belong to no row.
  const uint64_t before = count_by_ids(r, 0);
  r.ids.insert(r.ids.end(), 500, 7);
  EXPECT_EQ(count_by_ids(r, 0), before);
  EXPECT_THROW(count_by_ids(r, -1), std::invalid_argument);
}

TEST(CorelatedVariants, NamesRoundTrip) {
  for (auto v : all_variants()) EXPECT_EQ(parse_variant(to_string(v)), v);
  EXPECT_FALSE(parse_variant("nope"));
  EXPECT_FALSE(is_gpu(Variant::Cpu));
}

}  // namespace
