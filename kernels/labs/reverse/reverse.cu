// CUDA variants of the vector reversal.
#include <stdexcept>
#include <string>

#include "common/block_sum.cuh"
#include "common/cuda_check.h"
#include "common/launch.h"
#include "labs/reverse/reverse.h"

namespace cv::reverse {
namespace {

__global__ void naive_kernel(const int32_t* __restrict__ in, int32_t* __restrict__ out, size_t n) {
  const unsigned long long i = flat_global_thread();
  if (i < n) out[i] = in[n - 1 - i];
}

// Block b writes out[b*tile, (b+1)*tile) from the mirrored input tile; threads
// read and write consecutive addresses, the reversal happens in shared memory.
__global__ void shared_kernel(const int32_t* __restrict__ in, int32_t* __restrict__ out, size_t n) {
  extern __shared__ int32_t tile_mem[];
  const unsigned t = flat_thread(), threads = block_threads();
  const long long tile = static_cast<long long>(threads) * kItemsPerThread;
  const long long out_base = static_cast<long long>(blockIdx.x) * tile;
  const long long in_base =
      static_cast<long long>(n) - out_base - tile;  // may be negative in the last block
#pragma unroll
  for (int k = 0; k < kItemsPerThread; ++k) {
    const long long j = static_cast<long long>(k) * threads + t;
    if (in_base + j >= 0) tile_mem[tile - 1 - j] = in[in_base + j];
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < kItemsPerThread; ++k) {
    const long long j = static_cast<long long>(k) * threads + t;
    if (out_base + j < static_cast<long long>(n)) out[out_base + j] = tile_mem[j];
  }
}

}  // namespace

std::optional<KernelAttributes> kernel_attributes(Variant v) {
  if (v == Variant::Naive)
    return query_kernel_attributes(reinterpret_cast<const void*>(&naive_kernel),
                                   "reverse naive_kernel");
  if (v == Variant::Shared)
    return query_kernel_attributes(reinterpret_cast<const void*>(&shared_kernel),
                                   "reverse shared_kernel", DynamicShared{kItemsPerThread * 4, 0});
  return std::nullopt;  // copy is cudaMemcpyAsync; the rest run on the CPU
}

void run_gpu(Variant v, const int32_t* d_in, int32_t* d_out, size_t n, const BlockShape& block,
             cudaStream_t s) {
  const long long shared = v == Variant::Shared ? block.threads() * kItemsPerThread * 4 : 0;
  require_valid(block, shared);
  if (n == 0) return;
  switch (v) {
    case Variant::Naive:
      naive_kernel<<<grid_1d(n, block), to_dim3(block), 0, s>>>(d_in, d_out, n);
      return cuda_check_launch("reverse naive_kernel<<<>>>");
    case Variant::Shared:
      shared_kernel<<<ceil_div(n, block.threads() * kItemsPerThread), to_dim3(block), shared, s>>>(
          d_in, d_out, n);
      return cuda_check_launch("reverse shared_kernel<<<>>>");
    case Variant::Copy:
      CV_CUDA(cudaMemcpyAsync(d_out, d_in, n * sizeof(int32_t), cudaMemcpyDeviceToDevice, s));
      return;
    default:
      throw std::invalid_argument(std::string("reverse: ") + to_string(v) +
                                  " is not a GPU variant");
  }
}

}  // namespace cv::reverse
