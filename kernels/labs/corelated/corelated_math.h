#pragma once
// Per-pair math of the co-related ids lab (document 002), shared by the CUDA kernels
// and the CPU twin. Rows are sets: ascending ids without repeats.
#include <cstdint>

#include "common/hd.h"

namespace cv::corelated {

// Ids of row a found in row b, the document's way: each id of a searches all of b.
CV_HD uint32_t shared_linear(const int32_t* a, uint32_t la, const int32_t* b, uint32_t lb) {
  uint32_t c = 0;
  for (uint32_t x = 0; x < la; ++x) {
    const int32_t v = a[x];
    bool found = false;
    for (uint32_t y = 0; y < lb; ++y) found |= b[y] == v;
    c += found;
  }
  return c;
}

// The same count by merging the two ascending rows: O(la + lb).
CV_HD uint32_t shared_sorted(const int32_t* a, uint32_t la, const int32_t* b, uint32_t lb) {
  uint32_t x = 0, y = 0, c = 0;
  while (x < la && y < lb) {
    const int32_t p = a[x], q = b[y];
    c += p == q;
    x += p <= q;
    y += q <= p;
  }
  return c;
}

// Pair index p in [0, rows*(rows-1)/2) -> (r, s), r < s, row-major over the
// upper triangle: p = r*rows - r*(r+1)/2 + (s - r - 1).
CV_HD uint64_t pair_index(uint64_t rows, uint64_t r, uint64_t s) {
  return r * rows - r * (r + 1) / 2 + (s - r - 1);
}
CV_HD uint64_t pair_count(uint64_t rows) {
  return rows < 2 ? 0 : rows * (rows - 1) / 2;
}

}  // namespace cv::corelated
