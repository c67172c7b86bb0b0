#pragma once
// Per-compute-capability limits of every architecture CUDA 13 supports, in one
// table: the CUDA C++ Programming Guide's "Technical Specifications per
// Compute Capability" and the occupancy calculator's allocation rules
// (cuda_occupancy.h). The app reads the running device's own attributes; this
// table is for devices that are not here (the occupancy panel's "on another
// GPU" answers, docs) and is checked against a real device in gpu_tests.
#include <vector>

#include "occupancy.h"

namespace cv {

struct ArchLimits {
  int cc_major = 0, cc_minor = 0;
  const char* family = "";    // "Turing", ...
  const char* examples = "";  // "RTX 20xx, GTX 16xx, T4"
  int max_threads_per_sm = 0;
  int max_warps_per_sm = 0;
  int max_blocks_per_sm = 0;
  int regs_per_sm = 65536;
  int regs_per_block = 65536;
  int max_regs_per_thread = 255;
  int reg_alloc_unit = 256;              // registers per warp are allocated in these
  long long shared_per_sm = 0;           // bytes, at the largest carveout
  long long shared_per_block = 49152;    // without opting in
  long long shared_per_block_optin = 0;  // cudaFuncAttributeMaxDynamicSharedMemorySize
  long long reserved_shared_per_block = 0;
  int shared_alloc_unit = 0;  // bytes
};

// 7.5, 8.0, 8.6, 8.7, 8.9, 9.0, 10.0, 12.0 in order.
const std::vector<ArchLimits>& arch_limits_table();

// The row for major.minor, or nullptr for a capability not in the table.
const ArchLimits* find_arch_limits(int cc_major, int cc_minor);

// The occupancy model's input for a device of that architecture.
OccupancyDevice occupancy_device(const ArchLimits& a);

}  // namespace cv
