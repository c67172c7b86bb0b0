#pragma once
// The run-time answer to "does this binary hold code this GPU can run?":
// cudaFuncGetAttributes on a tiny kernel compiled like every other one loads
// its module for the current device, so it fails exactly as a launch would
// (cudaErrorNoKernelImageForDevice, cudaErrorUnsupportedPtxVersion, ...).
#include <string>

namespace cv {

struct DeviceCode {
  bool ok = false;
  int binary_version = 0;  // SASS architecture loaded (e.g. 90), the JIT's target for PTX
  int ptx_version = 0;     // the PTX it came from, 0 for SASS-only
  std::string error;       // "cudaFuncGetAttributes: cudaErrorNoKernelImageForDevice"
};

// Checks the current device (cudaSetDevice first); clears the sticky error.
DeviceCode probe_device_code();

}  // namespace cv
