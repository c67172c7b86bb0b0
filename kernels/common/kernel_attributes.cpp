#include "kernel_attributes.h"

#include <cuda_runtime_api.h>

#include <utility>

namespace cv {

KernelAttributes query_kernel_attributes(const void* func, std::string name,
                                         DynamicShared dynamic_shared) {
  KernelAttributes a;
  a.name = std::move(name);
  a.func = func;
  a.dynamic_shared = dynamic_shared;
  cudaFuncAttributes f{};
  const cudaError_t err = cudaFuncGetAttributes(&f, func);
  if (err != cudaSuccess) {
    a.error = std::string("cudaFuncGetAttributes(") + a.name + "): " + cudaGetErrorName(err);
    cudaGetLastError();  // not sticky, but keep the next caller's check clean
    return a;
  }
  a.ok = true;
  a.regs_per_thread = f.numRegs;
  a.static_shared_bytes = static_cast<long long>(f.sharedSizeBytes);
  a.local_bytes = static_cast<long long>(f.localSizeBytes);
  a.const_bytes = static_cast<long long>(f.constSizeBytes);
  a.max_threads_per_block = f.maxThreadsPerBlock;
  a.max_dynamic_shared = f.maxDynamicSharedSizeBytes;
  a.ptx_version = f.ptxVersion;
  a.binary_version = f.binaryVersion;
  return a;
}

}  // namespace cv
