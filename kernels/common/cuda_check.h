#pragma once
// CUDA error reporting: every runtime call goes through CV_CUDA, which throws a
// CudaError naming the call and the error, so callers (UI, CLI) decide what to do.
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

#include "fault_injection.h"

namespace cv {

class CudaError : public std::runtime_error {
 public:
  CudaError(const char* call, cudaError_t code)
      : std::runtime_error(std::string(call) + " failed: " + cudaGetErrorName(code) + " (" +
                           cudaGetErrorString(code) + ")"),
        code_(code),
        call_(call) {}
  cudaError_t code() const { return code_; }
  const std::string& call() const { return call_; }

 private:
  cudaError_t code_;
  std::string call_;
};

inline void cuda_check(cudaError_t code, const char* call) {
  if (code != cudaSuccess) throw CudaError(call, code);
}

namespace nvtx {
void mark(const char* message) noexcept;  // common/nvtx_range.h (kept out of every .cu)
}

// Checks a kernel launch: configuration errors show up in cudaGetLastError.
// Also the CUDA path's fault-injection point (CUDAVIZ_FAULT, fault_injection.h)
// and its NVTX mark: the kernel's name, right after the launch, for Nsight.
inline void cuda_check_launch(const char* kernel_name) {
  nvtx::mark(kernel_name);
  cudaError_t code = cudaGetLastError();
  if (code != cudaSuccess) throw CudaError(kernel_name, code);
  inject_launch_fault(kernel_name);
}

}  // namespace cv

#define CV_CUDA(call) ::cv::cuda_check((call), #call)
