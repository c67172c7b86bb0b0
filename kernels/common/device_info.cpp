#include "device_info.h"

#include "cpu_simd.h"

#include <cuda_runtime_api.h>

#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "cuda_arch.h"
#include "device_code.h"
#include "device_select.h"

namespace cv {

const char* to_string(Backend b) {
  return b == Backend::Cuda ? "cuda" : "cpu";
}

std::string cuda_version_text(int v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

std::string driver_too_old_sentence(int driver_version, int needed_version) {
  const int major = needed_version / 1000;
  // The Linux driver branch that first shipped each CUDA major (release notes).
  const std::string branch = major == 13 ? " (Linux R580 or newer)" : "";
  return "the NVIDIA driver supports CUDA " + cuda_version_text(driver_version) +
         " but this build needs CUDA " + cuda_version_text(needed_version) + branch +
         ": update the NVIDIA driver";
}

std::string no_code_sentence(int ordinal, const std::string& name, int cc_major, int cc_minor,
                             const std::string& built_list) {
  const std::string cc = std::to_string(cc_major) + "." + std::to_string(cc_minor);
  return "GPU " + std::to_string(ordinal) + " (" + name + ", compute capability " + cc +
         ") has no code in this build (built for " + built_list +
         "); rebuild for it: " + cmake_fix_line(cc_major, cc_minor);
}

namespace {

void fail(DeviceInfo& info, const char* call, cudaError_t err) {
  info.unavailable_reason = std::string(call) + ": " + cudaGetErrorName(err);
  cudaGetLastError();
}

void fill(DeviceInfo& info, const cudaDeviceProp& p, int dev) {
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
  cudaDeviceGetAttribute(&info.mem_clock_khz, cudaDevAttrMemoryClockRate, dev);
  cudaDeviceGetAttribute(&info.mem_bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev);
  info.limits.max_threads_per_block = p.maxThreadsPerBlock;
  info.limits.max_dim_x = p.maxThreadsDim[0];
  info.limits.max_dim_y = p.maxThreadsDim[1];
  info.limits.max_dim_z = p.maxThreadsDim[2];
  info.limits.shared_bytes_per_block = static_cast<long long>(p.sharedMemPerBlock);
}

DeviceInfo query(int dev) {
  DeviceInfo info;
  info.ordinal = dev;
  if (cudaDriverGetVersion(&info.driver_version) != cudaSuccess) info.driver_version = 0;
  cudaError_t err = cudaGetDeviceCount(&info.device_count);
  if (err != cudaSuccess) {
    info.device_count = 0;
    fail(info, "cudaGetDeviceCount", err);
    if (err == cudaErrorInsufficientDriver && info.driver_version > 0) {
      info.blocked = true;  // a driver is there, just too old for this runtime
      info.unavailable_reason =
          driver_too_old_sentence(info.driver_version, built_runtime_version() / 1000 * 1000);
    } else if (info.driver_version == 0) {
      info.unavailable_reason += " (no NVIDIA driver installed)";
    }
    return info;
  }
  if (info.device_count == 0) {
    info.unavailable_reason = "no CUDA device";
    return info;
  }
  if (dev >= info.device_count) {
    info.unavailable_reason = "CUDA device " + std::to_string(dev) + " does not exist (" +
                              std::to_string(info.device_count) + " devices)";
    return info;
  }
  cudaDeviceProp p{};
  err = cudaGetDeviceProperties(&p, dev);
  if (err != cudaSuccess) {
    fail(info, "cudaGetDeviceProperties", err);
    return info;
  }
  fill(info, p, dev);
  // The binary must hold code this GPU runs (SASS, or PTX the driver can JIT).
  if ((err = cudaSetDevice(dev)) != cudaSuccess) {
    fail(info, "cudaSetDevice", err);
    return info;
  }
  const DeviceCode code = probe_device_code();
  if (!code.ok) {
    info.blocked = true;
    if (code.error.find("UnsupportedPtxVersion") != std::string::npos)
      info.unavailable_reason =
          driver_too_old_sentence(info.driver_version, built_runtime_version());
    else
      info.unavailable_reason =
          no_code_sentence(dev, info.name, info.cc_major, info.cc_minor, built_architectures());
    info.unavailable_reason += " [" + code.error + "]";
    return info;
  }
  info.available = true;
  return info;
}

}  // namespace

const DeviceInfo& device_info() {
  static std::mutex m;
  static std::map<int, DeviceInfo> cache;  // entries never move: references stay valid
  const int dev = selected_device();
  std::lock_guard<std::mutex> lock(m);
  auto it = cache.find(dev);
  if (it == cache.end()) it = cache.emplace(dev, query(dev)).first;
  return it->second;
}

Backend resolve_backend(const std::string& request) {
  if (request == "cpu") return Backend::Cpu;
  const DeviceInfo& d = device_info();
  if (request == "cuda") {
    if (!d.available)
      throw std::runtime_error("--backend cuda: no usable CUDA device (" + d.unavailable_reason +
                               ")");
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
