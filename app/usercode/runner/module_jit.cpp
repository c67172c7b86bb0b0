#include "usercode/runner/module_jit.h"

#include <cuda_runtime_api.h>

#include <time.h>

#include <chrono>
#include <cstdint>

namespace cv::usercode::runner {
namespace {

double cpu_ms(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

}  // namespace

ModuleJit::ModuleJit(const CudaDriver& d, const std::vector<char>& image, const std::string& entry, int cap)
    : d_(d), entry_(entry), cap_(cap) {
  compile(image);
}

ModuleJit::ModuleJit(const CudaDriver& d, int device, std::vector<char> image, std::string entry, int cap)
    : d_(d), image_(std::move(image)), entry_(std::move(entry)), cap_(cap) {
  thread_ = std::thread([this, device] {
    if (cudaError_t e = cudaSetDevice(device); e != cudaSuccess) {  // the primary context, current here
      result_ = CUDA_ERROR_INVALID_CONTEXT;
      call_ = std::string("cudaSetDevice: ") + cudaGetErrorName(e);
      return;
    }
    compile(image_);
  });
}

ModuleJit::~ModuleJit() {
  wait();
  if (module_) d_.module_unload(module_);
}

void ModuleJit::wait() {
  if (thread_.joinable()) thread_.join();
}

CUmodule ModuleJit::take() {
  CUmodule m = module_;
  module_ = nullptr;
  return m;
}

void ModuleJit::compile(const std::vector<char>& image) {
  const auto t0 = std::chrono::steady_clock::now();
  const double thread0 = cpu_ms(CLOCK_THREAD_CPUTIME_ID), process0 = cpu_ms(CLOCK_PROCESS_CPUTIME_ID);
  CUjit_option option = CU_JIT_MAX_REGISTERS;
  void* value = reinterpret_cast<void*>(static_cast<uintptr_t>(cap_));
  result_ = cap_ ? d_.module_load_ex(&module_, image.data(), 1, &option, &value)
                 : d_.module_load(&module_, image.data());
  if (result_ != CUDA_SUCCESS) {
    call_ = cap_ ? "cuModuleLoadDataEx" : "cuModuleLoadData";
    module_ = nullptr;
  } else if ((result_ = d_.get_function(&func_, module_, entry_.c_str())) != CUDA_SUCCESS) {
    call_ = "cuModuleGetFunction(" + entry_ + ")";
    func_ = nullptr;
  } else {
    d_.func_attribute(&registers_, CU_FUNC_ATTRIBUTE_NUM_REGS, func_);
  }
  ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  thread_cpu_ms_ = cpu_ms(CLOCK_THREAD_CPUTIME_ID) - thread0;
  process_cpu_ms_ = cpu_ms(CLOCK_PROCESS_CPUTIME_ID) - process0;
}

}  // namespace cv::usercode::runner
