#pragma once
// Sums across a warp and across a block for 1D kernels whose block shape comes
// from the caller. 1D kernels treat a block of x*y*z threads as one flat row of
// x*y*z threads (the lab convention), so any shape the device accepts works,
// including ones whose last warp is partial (e.g. 33 or 100 threads).
// CUDA-only header.
#include <cuda_runtime.h>

namespace cv {

// This thread's position in the flattened block, and the block's thread count.
__device__ __forceinline__ unsigned flat_thread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
__device__ __forceinline__ unsigned block_threads() {
  return blockDim.x * blockDim.y * blockDim.z;
}
// Global index of this thread in a 1D grid of flattened blocks.
__device__ __forceinline__ unsigned long long flat_global_thread() {
  return static_cast<unsigned long long>(blockIdx.x) * block_threads() + flat_thread();
}

// Sum over the live lanes of this thread's warp; the total lands in lane 0.
// A partial last warp only exchanges with lanes that exist: shuffles from
// absent lanes are undefined, so their values are discarded, never added.
template <typename T>
__device__ __forceinline__ T warp_sum(T v) {
  const unsigned t = flat_thread(), lane = t & 31u;
  const unsigned live = min(32u, block_threads() - (t & ~31u));
  const unsigned mask = live == 32u ? 0xffffffffu : (1u << live) - 1u;
#pragma unroll
  for (unsigned off = 16; off > 0; off >>= 1) {
    const T other = __shfl_down_sync(mask, v, off);
    if (lane + off < live) v += other;
  }
  return v;
}

// Sum over the whole block; the total is valid in flat thread 0 only.
// Every thread of the block must call it (it synchronizes). `scratch` is
// shared memory for at least 32 values.
template <typename T>
__device__ __forceinline__ T block_sum(T v, T* scratch) {
  const unsigned t = flat_thread(), n = block_threads();
  v = warp_sum(v);
  if (n <= 32u) return v;
  const unsigned warps = (n + 31u) / 32u;
  if ((t & 31u) == 0) scratch[t >> 5] = v;
  __syncthreads();
  if (t < 32u) {  // warp 0 is full because n > 32
    v = t < warps ? scratch[t] : T(0);
    v = warp_sum(v);
  }
  return v;
}

// Classic shared-memory tree over sh[0..n) where n = block_threads(), for any n
// (not only powers of two): each step folds the upper part onto the lower.
// Every thread must call it; afterwards sh[0] holds the sum.
template <typename T>
__device__ __forceinline__ void shared_tree_sum(T* sh) {
  const unsigned t = flat_thread();
  __syncthreads();
  for (unsigned width = block_threads(); width > 1;) {
    const unsigned half = (width + 1) / 2;
    if (t < width - half) sh[t] += sh[t + half];
    __syncthreads();
    width = half;
  }
}

}  // namespace cv
