#pragma once
// What the machine offers: a CUDA device (and its limits) or only the CPU.
#include <string>

#include "block_shape.h"

namespace cv {

enum class Backend { Cuda, Cpu };
const char* to_string(Backend b);  // "cuda" / "cpu"

struct DeviceInfo {
  bool available = false;
  // Why not: e.g. "cudaGetDeviceCount: cudaErrorInsufficientDriver (no NVIDIA driver)",
  // or, when `blocked`, the sentence that says what to do.
  std::string unavailable_reason;
  // A driver and GPU are there but this build cannot use them (driver too old,
  // no code for the GPU): the app says so and runs the CPU backend; bench and
  // sweep exit 1 with the sentence.
  bool blocked = false;
  int ordinal = -1;
  int device_count = 0;
  int driver_version = 0;  // cudaDriverGetVersion: 0 when no driver is installed
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

// The selected device (device_select.h), queried once per ordinal; never
// throws. Clears the sticky error state on failure so later calls are not
// poisoned. Checks that this binary has code the device can run.
const DeviceInfo& device_info();

// Picks the backend for --backend auto|cuda|cpu. Throws std::runtime_error when
// cuda is demanded but absent (message carries the reason).
Backend resolve_backend(const std::string& request);

// The limits launches on `backend` are checked against.
BlockLimits block_limits(Backend backend);

// Device name for reports: the GPU's name, or "CPU (N threads, SIMD path)".
std::string device_label(Backend backend);

// "13.0" for 13000.
std::string cuda_version_text(int version);

// The sentences the app, bench, sweep and doctor share (pure, tested).
// The driver is older than the build's CUDA version needs.
std::string driver_too_old_sentence(int driver_version, int needed_version);
// The GPU has no SASS or PTX in this binary.
std::string no_code_sentence(int ordinal, const std::string& name, int cc_major, int cc_minor,
                             const std::string& built_list);

}  // namespace cv
