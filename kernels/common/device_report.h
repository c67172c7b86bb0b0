#pragma once
// Everything the device panel and the occupancy model need to know about the
// GPU, read once with cudaDeviceGetAttribute (CUDA 13 dropped the clock fields
// from cudaDeviceProp; the attributes remain). Plain data: the formatting and
// the conversion to the occupancy model's input are pure functions.
#include <string>
#include <utility>
#include <vector>

#include "occupancy.h"

namespace cv {

struct DeviceReport {
  bool available = false;
  std::string unavailable_reason;  // e.g. "cudaGetDeviceCount: cudaErrorInsufficientDriver"
  int ordinal = -1;
  std::string name;
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  int warp_size = 0;
  int max_threads_per_block = 0;
  int max_threads_per_sm = 0;
  int max_blocks_per_sm = 0;
  int max_block_x = 0, max_block_y = 0, max_block_z = 0;
  long long shared_per_block = 0;
  long long shared_per_block_optin = 0;
  long long shared_per_sm = 0;
  long long reserved_shared_per_block = 0;
  int regs_per_block = 0;
  int regs_per_sm = 0;
  long long global_mem_bytes = 0;
  long long l2_bytes = 0;
  int clock_khz = 0;      // SM clock, peak
  int mem_clock_khz = 0;  // memory clock, peak
  int mem_bus_bits = 0;
  std::string driver;  // e.g. "13.0"; runtime likewise
  std::string runtime;
};

// The selected device (device_select.h), queried once; never throws (unavailable_reason says why not).
const DeviceReport& device_report();

// Theoretical peak DRAM bandwidth in GB/s: 2 transfers a clock (DDR/HBM) x bus
// width; 0 when the clock or width is unknown.
double peak_memory_gb_per_s(const DeviceReport& d);

// The occupancy model's view of the device (rules filled for its architecture).
OccupancyDevice to_occupancy_device(const DeviceReport& d);

// (label, value) rows for the device panel, e.g. {"compute capability", "9.0"}.
std::vector<std::pair<std::string, std::string>> device_rows(const DeviceReport& d);

}  // namespace cv
