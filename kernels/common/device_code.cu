#include "device_code.h"

#include <cuda_runtime.h>

namespace cv {
namespace {

__global__ void code_probe_kernel(int* out) {
  if (out) *out = 1;
}

}  // namespace

DeviceCode probe_device_code() {
  DeviceCode c;
  cudaFuncAttributes a{};
  const cudaError_t e = cudaFuncGetAttributes(&a, code_probe_kernel);
  if (e != cudaSuccess) {
    c.error = std::string("cudaFuncGetAttributes: ") + cudaGetErrorName(e);
    cudaGetLastError();
    return c;
  }
  c.ok = true;
  c.binary_version = a.binaryVersion;
  c.ptx_version = a.ptxVersion;
  return c;
}

}  // namespace cv
