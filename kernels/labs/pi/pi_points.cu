// GPU side of the pi points: one thread per Philox call (three samples).
#include "common/block_sum.cuh"
#include "common/cuda_check.h"
#include "common/launch.h"
#include "labs/pi/pi_math.h"
#include "labs/pi/pi_points.h"

namespace cv::pi {
namespace {

__device__ __forceinline__ float4 point(const Words4& r, unsigned slot) {
  uint32_t cx, cy;
  coords(r, slot, &cx, &cy);
  return make_float4(unit_coord(cx), unit_coord(cy), 0.f, inside(cx, cy) ? 1.f : 0.f);
}

// One thread per Philox call: up to three points.
__global__ void points_kernel(float4* __restrict__ out, unsigned count, uint64_t seed) {
  const unsigned long long q = flat_global_thread();
  const unsigned long long s = kPerCall * q;
  if (s >= count) return;
  const Words4 r = call_words(seed, q);
  for (unsigned k = 0; k < kPerCall && s + k < count; ++k) out[s + k] = point(r, k);
}

}  // namespace

KernelAttributes points_kernel_attributes() {
  return query_kernel_attributes(reinterpret_cast<const void*>(&points_kernel),
                                 "pi points_kernel");
}

void write_points_gpu(float4* out, unsigned count, uint64_t seed, const BlockShape& block,
                      cudaStream_t s) {
  require_valid(block);
  if (count == 0) return;
  const unsigned long long calls =
      (static_cast<unsigned long long>(count) + kPerCall - 1) / kPerCall;
  points_kernel<<<grid_1d(calls, block), to_dim3(block), 0, s>>>(out, count, seed);
  cuda_check_launch("pi points_kernel<<<>>>");
}

}  // namespace cv::pi
