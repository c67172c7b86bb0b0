#include "device_info.h"

#include "cpu_simd.h"

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <thread>

namespace cv {

const char* to_string(Backend b) { return b == Backend::Cuda ? "cuda" : "cpu"; }

static DeviceInfo query() {
  DeviceInfo info;
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    info.unavailable_reason = std::string("cudaGetDeviceCount: ") + cudaGetErrorName(err);
    cudaGetLastError();
    return info;
  }
  if (count == 0) {
    info.unavailable_reason = "no CUDA device";
    return info;
  }
  cudaDeviceProp p{};
  err = cudaGetDeviceProperties(&p, 0);
  if (err != cudaSuccess) {
    info.unavailable_reason = std::string("cudaGetDeviceProperties: ") + cudaGetErrorName(err);
    cudaGetLastError();
    return info;
  }
  info.available = true;
  info.ordinal = 0;
  info.name = p.name;
  info.cc_major = p.major;
  info.cc_minor = p.minor;
  info.sm_count = p.multiProcessorCount;
  info.warp_size = p.warpSize;
  info.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
  info.global_mem_bytes = static_cast<long long>(p.totalGlobalMem);
  info.shared_per_sm = static_cast<long long>(p.sharedMemPerMultiprocessor);
  info.regs_per_sm = p.regsPerMultiprocessor;
  info.l2_bytes = p.l2CacheSize;
  cudaDeviceGetAttribute(&info.mem_clock_khz, cudaDevAttrMemoryClockRate, 0);
  cudaDeviceGetAttribute(&info.mem_bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0);
  info.limits.max_threads_per_block = p.maxThreadsPerBlock;
  info.limits.max_dim_x = p.maxThreadsDim[0];
  info.limits.max_dim_y = p.maxThreadsDim[1];
  info.limits.max_dim_z = p.maxThreadsDim[2];
  info.limits.shared_bytes_per_block = static_cast<long long>(p.sharedMemPerBlock);
  return info;
}

const DeviceInfo& device_info() {
  static const DeviceInfo info = query();
  return info;
}

Backend resolve_backend(const std::string& request) {
  if (request == "cpu") return Backend::Cpu;
  const DeviceInfo& d = device_info();
  if (request == "cuda") {
    if (!d.available) throw std::runtime_error("--backend cuda: no usable CUDA device (" + d.unavailable_reason + ")");
    return Backend::Cuda;
  }
  return d.available ? Backend::Cuda : Backend::Cpu;
}

BlockLimits block_limits(Backend backend) {
  return backend == Backend::Cuda && device_info().available ? device_info().limits : BlockLimits{};
}

std::string device_label(Backend backend) {
  if (backend == Backend::Cuda) return device_info().name;
  // The SIMD path too: CPU figures depend on it (CUDAVIZ_CPU_SIMD can force one).
  return "CPU (" + std::to_string(std::max(1u, std::thread::hardware_concurrency())) +
         " threads, " + to_string(default_simd_path()) + ")";
}

}  // namespace cv
