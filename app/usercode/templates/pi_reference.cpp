// No CUDA header may come before the prelude here: on the host it defines its
// own float4 (as the CPU path of student kernels sees it).
#include "usercode/prelude/cudaviz.h"
// The prelude's empty __global__/__device__ macros must not leak further.
#undef __global__
#undef __device__
#undef __host__
#undef __shared__
#undef __forceinline__

#include <atomic>

#include "common/parallel_for.h"
#include "usercode/templates/pi_reference.h"

namespace cv::usercode {

uint64_t pi_reference_hits(uint64_t n, uint64_t seed) {
  std::atomic<uint64_t> total{0};
  parallel_for(static_cast<size_t>(n), [&](size_t b, size_t e) {
    uint64_t hits = 0;
    for (size_t k = b; k < e; ++k) hits += cv::sample_inside(seed, k);
    total += hits;
  });
  return total.load();
}

}  // namespace cv::usercode
