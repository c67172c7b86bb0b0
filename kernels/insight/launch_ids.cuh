#pragma once
// Device side of colour by launch: a kernel that is asked (ids != nullptr)
// writes who computed its element, through the shared launch_id().
// CUDA-only header.
#include <cuda_runtime.h>

#include "insight/launch_ids.h"

namespace cv::insight {

// The SM this thread runs on, from the %smid special register. It is a
// hardware slot number (not guaranteed contiguous) that can change between
// launches: a picture of the scheduler, not an address.
__device__ __forceinline__ unsigned sm_id() {
  unsigned r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}

__device__ __forceinline__ Dim3u dim3u(const uint3 v) {
  return {v.x, v.y, v.z};
}
__device__ __forceinline__ Dim3u dim3u(const dim3 v) {
  return {v.x, v.y, v.z};
}

// Writes this thread's id for element i when the caller asked for ids.
__device__ __forceinline__ void write_launch_id(const IdsOut& out, unsigned long long i) {
  if (!out.ids) return;
  const unsigned sm = out.mode == static_cast<int>(ColourBy::Sm) ? sm_id() : 0u;
  out.ids[i] =
      launch_id(out.mode, dim3u(blockIdx), dim3u(gridDim), dim3u(threadIdx), dim3u(blockDim), sm);
}

}  // namespace cv::insight
