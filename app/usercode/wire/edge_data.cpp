#include "usercode/wire/edge_data.h"

#include <climits>
#include <random>
#include <unordered_set>

#include "labs/reduce/reduce.h"
#include "usercode/wire/data_generators.h"

namespace cv::usercode::edge_data {
namespace {

// A generator of its own per (seed, purpose): the same numbers in the runner and the check.
std::mt19937_64 rng(uint64_t seed, uint64_t purpose) {
  std::seed_seq s{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32),
                  static_cast<uint32_t>(purpose)};
  return std::mt19937_64(s);
}

std::vector<int32_t> uniform(unsigned long long n, uint64_t seed, uint64_t purpose, int64_t lo, int64_t hi) {
  std::mt19937_64 g = rng(seed, purpose);
  std::uniform_int_distribution<int64_t> d(lo, hi);
  std::vector<int32_t> v(static_cast<size_t>(n));
  for (int32_t& x : v) x = static_cast<int32_t>(d(g));
  return v;
}

}  // namespace

std::vector<int32_t> ends_multiple_of_3(unsigned long long n, uint64_t seed) {
  std::vector<int32_t> v = reduce::make_data(static_cast<size_t>(n), seed);
  // x - x % 3 stays in range for every int32 (the remainder has x's sign).
  if (!v.empty()) v.front() -= v.front() % 3, v.back() -= v.back() % 3;
  return v;
}

std::vector<int32_t> near_int_max(unsigned long long n, uint64_t seed) {
  return uniform(n, seed, 1, static_cast<int64_t>(INT32_MAX) - 65536, INT32_MAX);
}

std::vector<int32_t> near_int_min(unsigned long long n, uint64_t seed) {
  return uniform(n, seed, 2, INT32_MIN, static_cast<int64_t>(INT32_MIN) + 65536);
}

std::vector<int32_t> sum3_extremes(unsigned long long n, uint64_t seed) {
  static constexpr int32_t kPalette[] = {INT32_MIN, INT32_MIN + 1, INT32_MAX, INT32_MAX - 1, 0, 1, 2, -1,
                                         -2,        3,             -3};
  std::mt19937_64 g = rng(seed, 3);
  std::uniform_int_distribution<size_t> d(0, std::size(kPalette) - 1);
  std::vector<int32_t> v(static_cast<size_t>(n));
  for (int32_t& x : v) x = kPalette[d(g)];
  return v;
}

corelated::Rows ragged_rows(unsigned long long rows, uint64_t seed) {
  static constexpr uint32_t kLengths[] = {0, 1, 1, 2, 3, 7, 64};
  std::mt19937_64 g = rng(seed, 4);
  std::uniform_int_distribution<size_t> pick(0, std::size(kLengths) - 1);
  std::vector<int32_t> values;
  std::vector<size_t> offsets{0};
  std::unordered_set<int32_t> row;
  for (unsigned long long r = 0; r < rows; ++r) {
    // The first rows are one empty and one single id, whatever the draw.
    const uint32_t len = r == 0 ? 0 : r == 1 ? 1 : kLengths[pick(g)];
    // Short rows share a few ids (they overlap often); longer rows draw from more.
    const int32_t universe = len <= 3 ? 6 : 96;
    row.clear();
    while (row.size() < len) {
      const int32_t id = 1 + static_cast<int32_t>(g() % static_cast<uint64_t>(universe));
      if (row.insert(id).second) values.push_back(id);
    }
    offsets.push_back(values.size());
  }
  corelated::Rows out = corelated::make_rows(values, offsets);
  // Past the last row, up to the span's n * 64 ids: the common short-row ids,
  // so a kernel reading a fixed 64 ids a row counts what no row holds.
  while (out.ids.size() < rows * kCorelatedIdsPerRow) out.ids.push_back(1 + static_cast<int32_t>(out.ids.size() % 6));
  return out;
}

}  // namespace cv::usercode::edge_data
