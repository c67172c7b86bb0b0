#pragma once
// Guarded PTX to a cubin with nvJitLink (libnvJitLink.so.13 of the CUDA 13
// toolkit), reached through dlopen like NVRTC (usercode/compile/nvrtc_api.h): no
// link-time dependency, and no driver needed, so machines without a GPU test
// it. Where nvJitLink is missing, the runner loads the PTX itself and the
// driver's JIT compiles it (cuModuleLoadData accepts PTX text).
#include <string>
#include <vector>

namespace cv::usercode::guard {

struct LinkResult {
  bool ok = false;
  std::vector<char> cubin;
  std::string error;  // a sentence with nvJitLink's log when !ok
  std::string info;   // ptxas -v lines (registers, stack, spills) of the linked code
  double link_ms = 0;
};

// Compiles `ptx` for `arch` ("sm_90"); thread-safe.
LinkResult link_ptx(const std::string& ptx, const std::string& arch);

// "" when nvJitLink can be used, else why not (one sentence).
std::string jitlink_status();

}  // namespace cv::usercode::guard
