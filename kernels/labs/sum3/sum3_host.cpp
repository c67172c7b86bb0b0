// Host-side pieces of the 3SUM lab: variant names, default data, the grid picture.
#include <algorithm>
#include <random>
#include <stdexcept>

#include "labs/sum3/sum3.h"
#include "labs/sum3/sum3_math.h"

namespace cv::sum3 {

const char* to_string(Variant v) { return name_of(kVariants, v); }

std::optional<Variant> parse_variant(const std::string& name) {
  return parse_name(kVariants, name);
}

const std::vector<Variant>& all_variants() {
  static const std::vector<Variant> v = values_of(kVariants);
  return v;
}

bool is_gpu(Variant v) {
  return v != Variant::CpuSerial && v != Variant::Cpu && v != Variant::CpuSorted;
}
bool is_brute_force(Variant v) {
  return v != Variant::CpuSorted && v != Variant::Sorted;
}

std::vector<int32_t> make_data(size_t n, int32_t lo, int32_t hi, uint32_t seed) {
  if (lo > hi) throw std::invalid_argument("sum3 data: empty value range");
  std::mt19937 gen(seed);
  // Modulo rather than uniform_int_distribution: its output is fixed by the
  // standard for mt19937, so every platform builds the same data. The bias for
  // ranges far below 2^32 is negligible for a lab data set.
  const uint64_t span = static_cast<uint64_t>(static_cast<int64_t>(hi) - lo) + 1;
  std::vector<int32_t> v(n);
  for (auto& x : v) x = static_cast<int32_t>(lo + static_cast<int64_t>(gen() % span));
  return v;
}

GridUsage grid_usage(uint64_t n, const BlockShape& b) {
  if (b.x < 1 || b.y < 1 || b.z < 1)
    throw std::invalid_argument("grid_usage: block dimensions must be >= 1");
  GridUsage g;
  const uint64_t bx = static_cast<uint64_t>(b.x), by = static_cast<uint64_t>(b.y);
  g.grid_x = (n + bx - 1) / bx;
  g.grid_y = (n + by - 1) / by;
  g.blocks = g.grid_x * g.grid_y;
  g.threads = g.blocks * bx * by * static_cast<uint64_t>(b.z);
  g.upper_triangle = pairs_of(n);
  g.working = n >= 1 ? pairs_of(n - 1) : 0;
  // A block (gx, gy) has work when some i >= gx*bx is below some j <= min(n-2, (gy+1)*by-1).
  uint64_t busy = 0;
  if (n >= 3) {
    const uint64_t g1 = (n - 2) / by;  // last gy whose first j is <= n - 2
    for (uint64_t gx = 0; gx < g.grid_x; ++gx) {
      const uint64_t i_min = gx * bx;
      if (i_min > n - 3) break;                           // i must be <= n - 3
      const uint64_t g0 = (i_min + 2 + by - 1) / by - 1;  // first gy with (gy+1)*by - 1 > i_min
      if (g1 >= g0) busy += g1 - g0 + 1;
    }
  }
  g.idle_blocks = g.blocks - busy;
  return g;
}

}  // namespace cv::sum3
