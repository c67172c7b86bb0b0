#pragma once
// One PTX image compiled by the driver's JIT into a module (cuModuleLoadDataEx),
// optionally on a thread of its own with the runtime's primary context made
// current there: the register cap (register_cap.h) compiles the unguarded
// kernel and the guarded one at a cap beside each other instead of in turn.
// Owns the module until take(); timed (wall and CPU), so the load's reply can
// say where a slow first edit went: a JIT whose CPU time is far below its wall
// time waited (for a lock, the disk cache, a core) rather than compiled.
#include <cuda.h>

#include <string>
#include <thread>
#include <vector>

#include "common/cuda_driver.h"

namespace cv::usercode::runner {

class ModuleJit {
 public:
  // `image` ends in NUL; `cap` 0: no register cap. Compiles now, on this thread.
  ModuleJit(const CudaDriver& d, const std::vector<char>& image, const std::string& entry, int cap);
  // The same on a new thread for `device` (from its own copy of the image);
  // wait() before reading anything.
  ModuleJit(const CudaDriver& d, int device, std::vector<char> image, std::string entry, int cap);
  ~ModuleJit();
  ModuleJit(const ModuleJit&) = delete;
  ModuleJit& operator=(const ModuleJit&) = delete;

  void wait();
  bool ok() const { return result_ == CUDA_SUCCESS && func_; }
  CUresult result() const { return result_; }
  const std::string& failed_call() const { return call_; }  // "cuModuleLoadData" / "cuModuleGetFunction(k)"
  int registers() const { return registers_; }
  int cap() const { return cap_; }
  double ms() const { return ms_; }
  double thread_cpu_ms() const { return thread_cpu_ms_; }    // the compiling thread's CPU time
  double process_cpu_ms() const { return process_cpu_ms_; }  // every thread of the process meanwhile
  CUfunction function() const { return func_; }
  CUmodule take();  // the caller unloads it from now on

 private:
  void compile(const std::vector<char>& image);
  const CudaDriver& d_;
  std::vector<char> image_;  // the thread's copy (empty when compiled on the caller's thread)
  std::string entry_;
  int cap_ = 0;
  CUmodule module_ = nullptr;
  CUfunction func_ = nullptr;
  CUresult result_ = CUDA_ERROR_NOT_INITIALIZED;
  std::string call_;
  int registers_ = 0;
  double ms_ = 0, thread_cpu_ms_ = 0, process_cpu_ms_ = 0;
  std::thread thread_;
};

}  // namespace cv::usercode::runner
