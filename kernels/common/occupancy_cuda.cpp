#include "occupancy_cuda.h"

#include <cuda_runtime.h>

namespace cv {
namespace {

CudaAnswer failure(const std::string& call, cudaError_t e) {
  CudaAnswer a;
  a.error = call + ": " + cudaGetErrorName(e);
  cudaGetLastError();
  return a;
}

}  // namespace

CudaAnswer cuda_active_blocks_per_sm(const KernelAttributes& k, int threads) {
  if (!k.func) return CudaAnswer{false, 0, "no kernel"};
  int blocks = 0;
  const size_t dyn = static_cast<size_t>(k.dynamic_shared.bytes(threads));
  const cudaError_t e =
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k.func, threads, dyn);
  if (e != cudaSuccess) return failure("cudaOccupancyMaxActiveBlocksPerMultiprocessor", e);
  return CudaAnswer{true, blocks, ""};
}

CudaAnswer cuda_suggest_block_threads(const KernelAttributes& k, int max_threads) {
  if (!k.func) return CudaAnswer{false, 0, "no kernel"};
  int min_grid = 0, block = 0;
  const DynamicShared dyn = k.dynamic_shared;
  // The runtime template calls this for each candidate block size.
  auto shared_for = [dyn](int threads) { return static_cast<size_t>(dyn.bytes(threads)); };
  const cudaError_t e = cudaOccupancyMaxPotentialBlockSizeVariableSMem(&min_grid, &block, k.func,
                                                                       shared_for, max_threads);
  if (e != cudaSuccess) return failure("cudaOccupancyMaxPotentialBlockSizeVariableSMem", e);
  return CudaAnswer{true, block, ""};
}

}  // namespace cv
