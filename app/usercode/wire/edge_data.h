#pragma once
// The verdict's edge values (usercode/client/verdict.h): data a lab's own generator
// never draws, made from n and a seed like every runner generator
// (data_generators.cpp names them), so the runner makes them and the check
// remakes the same on the host.
#include <cstdint>
#include <vector>

#include "labs/corelated/corelated.h"

namespace cv::usercode::edge_data {

// The lab's data (reduce::make_data) with the first and the last element made
// multiples of 3, so a count that skips either is short.
std::vector<int32_t> ends_multiple_of_3(unsigned long long n, uint64_t seed);
// Values in [INT32_MAX - 2^16, INT32_MAX]: sums past 2^31 after two of them.
std::vector<int32_t> near_int_max(unsigned long long n, uint64_t seed);
// Values in [INT32_MIN, INT32_MIN + 2^16]: negative sums past -2^31.
std::vector<int32_t> near_int_min(unsigned long long n, uint64_t seed);
// 3SUM's extremes: INT32_MIN, INT32_MAX, their neighbours and small values,
// so some triples sum to 0 only when the sum wraps in 32 bits
// (INT_MAX + INT_MAX + 2, INT_MIN + INT_MIN + 0) and some truly do
// (INT_MAX + INT_MIN + 1).
std::vector<int32_t> sum3_extremes(unsigned long long n, uint64_t seed);
// Co-related rows of ragged lengths: empty rows, single ids, short rows and
// full 64-id rows, ids from a small universe so short rows overlap; `rows`
// rows, the ids padded to rows * 64 with ids no row holds past the last row.
corelated::Rows ragged_rows(unsigned long long rows, uint64_t seed);

}  // namespace cv::usercode::edge_data
