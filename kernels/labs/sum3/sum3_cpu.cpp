// CPU twins of the 3SUM lab, threaded with parallel_for. Work per i shrinks as
// i grows, so i values are dealt out round-robin over many stripes to balance.
#include <algorithm>
#include <vector>

#include "common/parallel_for.h"
#include "labs/sum3/sum3.h"
#include "labs/sum3/sum3_math.h"

namespace cv::sum3 {
namespace {

constexpr size_t kStripes = 256;

bool cancelled(const std::atomic<bool>* c) {
  return c && c->load(std::memory_order_relaxed);
}

// Sums f(i) over i in [0, n), i dealt round-robin to stripes run in parallel.
template <typename F>
uint64_t striped_sum(size_t n, const std::atomic<bool>* cancel, F f) {
  const size_t stripes = std::min(kStripes, std::max<size_t>(n, 1));
  std::vector<uint64_t> partial(stripes, 0);
  parallel_for(stripes, [&](size_t begin, size_t end) {
    for (size_t s = begin; s < end; ++s) {
      uint64_t c = 0;
      for (size_t i = s; i < n; i += stripes) {
        if (cancelled(cancel)) return;
        c += f(i);
      }
      partial[s] = c;
    }
  });
  uint64_t total = 0;
  for (uint64_t c : partial) total += c;
  return total;
}

// Zero triples whose smallest index is i: the same per-pair math as the kernels.
CV_ALWAYS_INLINE uint64_t brute_force_impl(const int32_t* v, size_t n, size_t i) {
  uint64_t c = 0;
  for (size_t j = i + 1; j + 1 < n; ++j) {
    int32_t t;
    if (!pair_target(v[i], v[j], &t)) continue;
    uint32_t hits = 0;  // a plain counting loop the compiler vectorizes
    for (size_t k = j + 1; k < n; ++k) hits += v[k] == t;
    c += hits;
  }
  return c;
}

// The counting loop runs 4 (SSE2) or 8 (AVX2) comparisons an instruction.
CV_TARGET_BASELINE uint64_t brute_force_baseline(const int32_t* v, size_t n, size_t i) {
  return brute_force_impl(v, n, i);
}
CV_TARGET_AVX2 uint64_t brute_force_avx2(const int32_t* v, size_t n, size_t i) {
  return brute_force_impl(v, n, i);
}
using BruteForceFn = uint64_t (*)(const int32_t*, size_t, size_t);
BruteForceFn brute_force_for(SimdPath path) {
  return require_simd(path, "sum3") == SimdPath::Avx2 ? brute_force_avx2 : brute_force_baseline;
}

}  // namespace

uint64_t count_cpu_serial(const int32_t* v, size_t n, const std::atomic<bool>* cancel,
                          SimdPath path) {
  const BruteForceFn f = brute_force_for(path);
  uint64_t c = 0;
  for (size_t i = 0; i < n; ++i) {
    if (cancelled(cancel)) break;
    c += f(v, n, i);
  }
  return c;
}

uint64_t count_cpu(const int32_t* v, size_t n, const std::atomic<bool>* cancel, SimdPath path) {
  if (n < 3) return 0;
  const BruteForceFn f = brute_force_for(path);
  return striped_sum(n, cancel, [&](size_t i) { return f(v, n, i); });
}

uint64_t count_cpu_sorted(const int32_t* v, size_t n, const std::atomic<bool>* cancel) {
  if (n < 3) return 0;
  std::vector<int32_t> a(v, v + n);
  std::sort(a.begin(), a.end());
  const int64_t len = static_cast<int64_t>(n);
  return striped_sum(n, cancel, [&](size_t i) {
    return sorted_count_for(a.data(), len, static_cast<int64_t>(i));
  });
}

uint64_t count_reference(const int32_t* v, size_t n) {
  uint64_t c = 0;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j)
      for (size_t k = j + 1; k < n; ++k)
        if (zero_triple(v[i], v[j], v[k])) ++c;
  return c;
}

}  // namespace cv::sum3
