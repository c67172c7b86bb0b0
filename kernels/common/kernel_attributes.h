#pragma once
// What the compiler gave a kernel (cudaFuncGetAttributes) and the dynamic
// shared memory its launches ask for, as plain data. Each demo exposes a small
// host function returning these for the kernel a variant runs, so the app can
// show registers, shared memory and occupancy without seeing CUDA symbols.
#include <string>

namespace cv {

// Dynamic shared memory of a launch as a function of the block's thread count:
// per_thread * threads + fixed bytes (the tiled n-body kernel: 16 bytes a thread).
struct DynamicShared {
  long long per_thread = 0;
  long long fixed = 0;
  // Kernels whose shared memory is not linear in the block (the n-body pairs
  // kernels): the exact bytes for a block of `threads`, used instead.
  long long (*of_threads)(long long threads) = nullptr;
  long long bytes(long long threads) const {
    return of_threads ? of_threads(threads) : per_thread * threads + fixed;
  }
};

struct KernelAttributes {
  std::string name;            // e.g. "fountain step_lean"
  const void* func = nullptr;  // the host stub, for the cudaOccupancy* calls
  bool ok = false;             // cudaFuncGetAttributes succeeded
  std::string error;           // otherwise the call and the CUDA error name
  int regs_per_thread = 0;
  long long static_shared_bytes = 0;
  long long local_bytes = 0;  // per thread: register spills and stack
  long long const_bytes = 0;
  int max_threads_per_block = 0;  // the kernel's own limit (launch bounds, registers)
  long long max_dynamic_shared = 0;
  int ptx_version = 0, binary_version = 0;  // e.g. 90 for sm_90
  DynamicShared dynamic_shared;
  std::string note;  // which build of a templated kernel, why it was chosen
};

// cudaFuncGetAttributes on `func`; never throws: a failure (no driver, no
// device, no image for this GPU) is reported in .error with ok = false.
KernelAttributes query_kernel_attributes(const void* func, std::string name,
                                         DynamicShared dynamic_shared = {});

}  // namespace cv
