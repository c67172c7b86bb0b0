// CPU twin of the pi points and the statistics helpers of pi_math.h.
#include <cmath>

#include "common/parallel_for.h"
#include "labs/pi/pi_math.h"
#include "labs/pi/pi_points.h"

namespace cv::pi {

double sigma(uint64_t n) {
  if (n == 0) return INFINITY;
  const double p = M_PI / 4.0;
  return 4.0 * std::sqrt(p * (1.0 - p) / static_cast<double>(n));
}

bool within_bound(double est, uint64_t n, double k) {
  return n > 0 && std::fabs(est - M_PI) <= k * sigma(n);
}

static float4 point(const Words4& r, unsigned slot) {
  uint32_t cx, cy;
  coords(r, slot, &cx, &cy);
  return float4{unit_coord(cx), unit_coord(cy), 0.f, inside(cx, cy) ? 1.f : 0.f};
}

void write_points_cpu(float4* out, unsigned count, uint64_t seed) {
  const size_t calls = (static_cast<size_t>(count) + kPerCall - 1) / kPerCall;
  parallel_for(calls, [&](size_t b, size_t e) {
    for (size_t q = b; q < e; ++q) {
      const Words4 r = call_words(seed, q);
      for (unsigned k = 0; k < kPerCall && kPerCall * q + k < count; ++k)
        out[kPerCall * q + k] = point(r, k);
    }
  });
}

}  // namespace cv::pi
