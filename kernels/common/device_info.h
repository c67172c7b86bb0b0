#pragma once
// What the machine offers: a CUDA device (and its limits) or only the CPU.
#include <string>

#include "block_shape.h"

namespace cv {

enum class Backend { Cuda, Cpu };
const char* to_string(Backend b);  // "cuda" / "cpu"

struct DeviceInfo {
  bool available = false;
  std::string unavailable_reason;  // e.g. "cudaGetDeviceCount: cudaErrorInsufficientDriver"
  int ordinal = -1;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  int warp_size = 32;
  int max_threads_per_sm = 0;
  long long global_mem_bytes = 0;
  long long shared_per_sm = 0;
  int regs_per_sm = 0;
  int mem_clock_khz = 0;
  int mem_bus_bits = 0;
  int l2_bytes = 0;
  BlockLimits limits;
};

// Queries device 0 once; never throws. Clears the sticky error state on failure
// so later calls are not poisoned.
const DeviceInfo& device_info();

// Picks the backend for --backend auto|cuda|cpu. Throws std::runtime_error when
// cuda is demanded but absent (message carries the reason).
Backend resolve_backend(const std::string& request);

// The limits launches on `backend` are checked against.
BlockLimits block_limits(Backend backend);

// Device name for reports: the GPU's name, or "CPU (N threads, SIMD path)".
std::string device_label(Backend backend);

}  // namespace cv
