#pragma once
// The CUDA runtime's own occupancy answers for a kernel (cudaOccupancy*), to
// cross-check the model in occupancy.h and to suggest a block size. Each call
// returns its error as text (the call and the CUDA error name) instead of
// throwing: a panel shows it and the app goes on.
#include <string>

#include "kernel_attributes.h"

namespace cv {

struct CudaAnswer {
  bool ok = false;
  int value = 0;
  std::string error;
};

// cudaOccupancyMaxActiveBlocksPerMultiprocessor for `threads` threads a block,
// with the kernel's dynamic shared memory for that block size.
CudaAnswer cuda_active_blocks_per_sm(const KernelAttributes& k, int threads);

// cudaOccupancyMaxPotentialBlockSizeVariableSMem: the block size (threads) that
// gives the kernel the highest occupancy, at most `max_threads`, with its
// dynamic shared memory as a function of the block size.
CudaAnswer cuda_suggest_block_threads(const KernelAttributes& k, int max_threads = 0);

}  // namespace cv
