#pragma once
// The test-only "dots" scene's per-dot math, written once for the CUDA kernel
// and the CPU loop: dots on a ring (or a spiral) turning with the step.
#include <cuda_runtime.h>

#include <cmath>

#include "common/hd.h"
#include "common/kernel_attributes.h"

namespace cv::dots {

// w is 1 for the first half of the dots and 0 for the rest: the inside/outside
// palette shows them green and red.
CV_HD float4 dot(unsigned i, unsigned n, float turn, bool spiral) {
  const float a = 6.2831853f * static_cast<float>(i) / static_cast<float>(n) + turn;
  const float r = spiral ? 0.2f + 0.8f * static_cast<float>(i) / static_cast<float>(n) : 1.f;
  return make_float4(0.5f + 0.45f * r * cosf(a), 0.5f + 0.45f * r * sinf(a), 0.f,
                     2 * i < n ? 1.f : 0.f);
}

// Writes every dot of the frame into `out` on the GPU (dots_kernel.cu).
void write_dots_gpu(float4* out, unsigned n, float turn, bool spiral, unsigned block,
                    cudaStream_t s);
KernelAttributes dots_kernel_attributes();

}  // namespace cv::dots
