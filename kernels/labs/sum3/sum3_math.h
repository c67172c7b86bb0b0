#pragma once
// Per-triple math of the 3SUM lab, shared by the CUDA kernels and the CPU twins.
// Sums are taken in 64 bits so int32 data never wraps.
#include <cstdint>

#include "common/hd.h"

namespace cv::sum3 {

// The value v_k must have for (v_i, v_j, v_k) to sum to zero. Returns false when
// that value lies outside int32: then no v_k can match and the pair has no work.
// Otherwise *t is the value, so the inner loop is a plain 32-bit compare.
CV_HD bool pair_target(int32_t a, int32_t b, int32_t* t) {
  const int64_t need = -(static_cast<int64_t>(a) + static_cast<int64_t>(b));
  if (need < INT32_MIN || need > INT32_MAX) return false;
  *t = static_cast<int32_t>(need);
  return true;
}

CV_HD bool zero_triple(int32_t a, int32_t b, int32_t c) {
  return static_cast<int64_t>(a) + static_cast<int64_t>(b) + static_cast<int64_t>(c) == 0;
}

// n choose 2 and n choose 3 (exact for n < 2^21, then as doubles).
CV_HD uint64_t pairs_of(uint64_t n) {
  return n < 2 ? 0 : n * (n - 1) / 2;
}
CV_HD double triples_of(uint64_t n) {
  return n < 3 ? 0.0
               : static_cast<double>(n) * static_cast<double>(n - 1) * static_cast<double>(n - 2) /
                     6.0;
}

// Zero-sum pairs (lo < hi) inside a[lo..hi] of an ascending array, with sum -a_i
// (the O(n^2) algorithm's inner step: two pointers, runs of equal values counted
// as products so duplicates are exact). Returns the number of index pairs.
CV_HD uint64_t two_pointer_count(const int32_t* a, int64_t lo, int64_t hi, int64_t target) {
  uint64_t count = 0;
  while (lo < hi) {
    const int32_t x = a[lo], y = a[hi];
    const int64_t s = static_cast<int64_t>(x) + static_cast<int64_t>(y);
    if (s < target) {
      ++lo;
    } else if (s > target) {
      --hi;
    } else if (x == y) {  // every pair inside [lo, hi] matches
      const uint64_t len = static_cast<uint64_t>(hi - lo + 1);
      count += len * (len - 1) / 2;
      break;
    } else {
      int64_t lo_run = 1, hi_run = 1;
      while (lo + lo_run < hi && a[lo + lo_run] == x) ++lo_run;
      while (hi - hi_run > lo && a[hi - hi_run] == y) ++hi_run;
      count += static_cast<uint64_t>(lo_run) * static_cast<uint64_t>(hi_run);
      lo += lo_run;
      hi -= hi_run;
    }
  }
  return count;
}

// All zero triples whose smallest sorted index is i (a ascending, length n).
CV_HD uint64_t sorted_count_for(const int32_t* a, int64_t n, int64_t i) {
  if (i + 2 >= n) return 0;
  // Ascending: once the three smallest candidates sum above zero, nothing later can.
  if (static_cast<int64_t>(a[i]) + a[i + 1] + a[i + 2] > 0) return 0;
  return two_pointer_count(a, i + 1, n - 1, -static_cast<int64_t>(a[i]));
}

}  // namespace cv::sum3
