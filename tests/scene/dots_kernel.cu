// The dots scene's kernel: one thread a dot.
#include "common/cuda_check.h"
#include "dots_math.h"

namespace cv::dots {
namespace {

__global__ void dots_kernel(float4* out, unsigned n, float turn, bool spiral) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = dot(i, n, turn, spiral);
}

}  // namespace

void write_dots_gpu(float4* out, unsigned n, float turn, bool spiral, unsigned block,
                    cudaStream_t s) {
  const unsigned grid = (n + block - 1) / block;
  dots_kernel<<<grid, block, 0, s>>>(out, n, turn, spiral);
  CV_CUDA(cudaGetLastError());
}

KernelAttributes dots_kernel_attributes() {
  return query_kernel_attributes(reinterpret_cast<const void*>(&dots_kernel), "dots_kernel");
}

}  // namespace cv::dots
