#include "device_report.h"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <map>
#include <mutex>

#include "device_info.h"
#include "device_select.h"

namespace cv {
namespace {

// long: one line per device attribute read, in the order DeviceReport lists them
DeviceReport query(int dev) {
  DeviceReport d;
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    d.unavailable_reason = std::string("cudaGetDeviceCount: ") + cudaGetErrorName(err);
    cudaGetLastError();
    return d;
  }
  if (count == 0) {
    d.unavailable_reason = "cudaGetDeviceCount: no CUDA device";
    return d;
  }
  std::string failed;
  auto attr = [&](cudaDeviceAttr a, const char* what) {
    int v = 0;
    const cudaError_t e = cudaDeviceGetAttribute(&v, a, dev);
    if (e != cudaSuccess) {
      if (failed.empty())
        failed = std::string("cudaDeviceGetAttribute(") + what + "): " + cudaGetErrorName(e);
      cudaGetLastError();
    }
    return v;
  };
  cudaDeviceProp p{};
  err = cudaGetDeviceProperties(&p, dev);
  if (err != cudaSuccess) {
    d.unavailable_reason = std::string("cudaGetDeviceProperties: ") + cudaGetErrorName(err);
    cudaGetLastError();
    return d;
  }
  d.ordinal = dev;
  d.name = p.name;
  d.cc_major = attr(cudaDevAttrComputeCapabilityMajor, "ComputeCapabilityMajor");
  d.cc_minor = attr(cudaDevAttrComputeCapabilityMinor, "ComputeCapabilityMinor");
  d.sm_count = attr(cudaDevAttrMultiProcessorCount, "MultiProcessorCount");
  d.warp_size = attr(cudaDevAttrWarpSize, "WarpSize");
  d.max_threads_per_block = attr(cudaDevAttrMaxThreadsPerBlock, "MaxThreadsPerBlock");
  d.max_threads_per_sm =
      attr(cudaDevAttrMaxThreadsPerMultiProcessor, "MaxThreadsPerMultiProcessor");
  d.max_blocks_per_sm = attr(cudaDevAttrMaxBlocksPerMultiprocessor, "MaxBlocksPerMultiprocessor");
  d.max_block_x = attr(cudaDevAttrMaxBlockDimX, "MaxBlockDimX");
  d.max_block_y = attr(cudaDevAttrMaxBlockDimY, "MaxBlockDimY");
  d.max_block_z = attr(cudaDevAttrMaxBlockDimZ, "MaxBlockDimZ");
  d.shared_per_block = attr(cudaDevAttrMaxSharedMemoryPerBlock, "MaxSharedMemoryPerBlock");
  d.shared_per_block_optin =
      attr(cudaDevAttrMaxSharedMemoryPerBlockOptin, "MaxSharedMemoryPerBlockOptin");
  d.shared_per_sm =
      attr(cudaDevAttrMaxSharedMemoryPerMultiprocessor, "MaxSharedMemoryPerMultiprocessor");
  d.reserved_shared_per_block =
      attr(cudaDevAttrReservedSharedMemoryPerBlock, "ReservedSharedMemoryPerBlock");
  d.regs_per_block = attr(cudaDevAttrMaxRegistersPerBlock, "MaxRegistersPerBlock");
  d.regs_per_sm = attr(cudaDevAttrMaxRegistersPerMultiprocessor, "MaxRegistersPerMultiprocessor");
  d.l2_bytes = attr(cudaDevAttrL2CacheSize, "L2CacheSize");
  d.clock_khz = attr(cudaDevAttrClockRate, "ClockRate");
  d.mem_clock_khz = attr(cudaDevAttrMemoryClockRate, "MemoryClockRate");
  d.mem_bus_bits = attr(cudaDevAttrGlobalMemoryBusWidth, "GlobalMemoryBusWidth");
  d.global_mem_bytes = static_cast<long long>(p.totalGlobalMem);
  int v = 0;
  if (cudaDriverGetVersion(&v) == cudaSuccess) d.driver = cuda_version_text(v);
  if (cudaRuntimeGetVersion(&v) == cudaSuccess) d.runtime = cuda_version_text(v);
  cudaGetLastError();
  if (!failed.empty()) {
    d.unavailable_reason = failed;
    return d;
  }
  d.available = true;
  return d;
}

std::string bytes_text(long long b) {
  char buf[64];
  if (b >= (1ll << 30))
    std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(b) / (1ll << 30));
  else if (b >= (1ll << 20))
    std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(b) / (1ll << 20));
  else if (b >= 1024)
    std::snprintf(buf, sizeof buf, "%.1f KiB (%lld B)", static_cast<double>(b) / 1024, b);
  else
    std::snprintf(buf, sizeof buf, "%lld B", b);
  return buf;
}

}  // namespace

const DeviceReport& device_report() {
  static std::mutex m;
  static std::map<int, DeviceReport> cache;  // per ordinal; entries never move
  const int dev = selected_device();
  std::lock_guard<std::mutex> lock(m);
  auto it = cache.find(dev);
  if (it == cache.end()) it = cache.emplace(dev, query(dev)).first;
  return it->second;
}

double peak_memory_gb_per_s(const DeviceReport& d) {
  return 2.0 * d.mem_clock_khz * 1e3 * (d.mem_bus_bits / 8.0) * 1e-9;
}

OccupancyDevice to_occupancy_device(const DeviceReport& d) {
  OccupancyDevice o;
  o.cc_major = d.cc_major;
  o.cc_minor = d.cc_minor;
  o.warp_size = d.warp_size;
  o.max_threads_per_block = d.max_threads_per_block;
  o.max_threads_per_sm = d.max_threads_per_sm;
  o.max_blocks_per_sm = d.max_blocks_per_sm;
  o.regs_per_sm = d.regs_per_sm;
  o.regs_per_block = d.regs_per_block;
  o.shared_per_sm = d.shared_per_sm;
  o.shared_per_block = d.shared_per_block;
  o.reserved_shared_per_block = d.reserved_shared_per_block;
  apply_architecture_rules(o);
  return o;
}

std::vector<std::pair<std::string, std::string>> device_rows(const DeviceReport& d) {
  std::vector<std::pair<std::string, std::string>> r;
  if (!d.available) {
    r.emplace_back("device", "none (" + d.unavailable_reason + ")");
    return r;
  }
  auto num = [](long long v) { return std::to_string(v); };
  char buf[96];
  r.emplace_back("name", d.name);
  r.emplace_back("compute capability", num(d.cc_major) + "." + num(d.cc_minor) + " (sm_" +
                                           num(d.cc_major) + num(d.cc_minor) + ")");
  r.emplace_back("SMs", num(d.sm_count));
  r.emplace_back("warp size", num(d.warp_size) + " threads");
  r.emplace_back("max threads / block", num(d.max_threads_per_block) + " (x " + num(d.max_block_x) +
                                            ", y " + num(d.max_block_y) + ", z " +
                                            num(d.max_block_z) + ")");
  r.emplace_back("max threads / SM", num(d.max_threads_per_sm) + " (" +
                                         num(d.warp_size ? d.max_threads_per_sm / d.warp_size : 0) +
                                         " warps)");
  r.emplace_back("max blocks / SM", num(d.max_blocks_per_sm));
  r.emplace_back("shared memory / block", bytes_text(d.shared_per_block) + ", opt-in " +
                                              bytes_text(d.shared_per_block_optin));
  r.emplace_back("shared memory / SM", bytes_text(d.shared_per_sm) + ", " +
                                           num(d.reserved_shared_per_block) +
                                           " B reserved a block");
  r.emplace_back("registers / block", num(d.regs_per_block));
  r.emplace_back("registers / SM", num(d.regs_per_sm) + " (32-bit)");
  r.emplace_back("memory", bytes_text(d.global_mem_bytes));
  r.emplace_back("L2 cache", bytes_text(d.l2_bytes));
  std::snprintf(buf, sizeof buf, "%.0f MHz", d.clock_khz / 1e3);
  r.emplace_back("SM clock (peak)", buf);
  std::snprintf(buf, sizeof buf, "%.0f MHz, %d-bit bus", d.mem_clock_khz / 1e3, d.mem_bus_bits);
  r.emplace_back("memory clock (peak)", buf);
  std::snprintf(buf, sizeof buf, "%.0f GB/s (2 x clock x bus width)", peak_memory_gb_per_s(d));
  r.emplace_back("memory bandwidth (theoretical)", buf);
  r.emplace_back("driver / runtime", d.driver + " / " + d.runtime);
  return r;
}

}  // namespace cv
