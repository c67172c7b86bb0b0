#pragma once
// Theoretical occupancy as a pure function of plain numbers: how many blocks of
// a kernel fit on one SM at once, and which resource runs out first (warp
// slots, registers, shared memory or the block-slot count). No CUDA calls, so
// it is unit-tested on made-up devices; on a real device the app cross-checks
// it with cudaOccupancyMaxActiveBlocksPerMultiprocessor.
//
// The rules follow the CUDA occupancy calculator (cuda_occupancy.h) for
// compute capability 7.0 and newer: warps are allocated whole, registers per
// warp in units of 256 within each of 4 SM sub-partitions, shared memory per
// block (plus the driver's reserved bytes) in units of 128 bytes (256 on 7.x),
// with the default shared-memory carveout (the largest).
#include <climits>
#include <string>

#include "block_shape.h"

namespace cv {

struct OccupancyDevice {
  int cc_major = 0, cc_minor = 0;
  int warp_size = 32;
  int max_threads_per_block = 1024;
  int max_threads_per_sm = 2048;
  int max_blocks_per_sm = 32;
  int regs_per_sm = 65536;
  int regs_per_block = 65536;
  long long shared_per_sm = 0;              // bytes the SM can give to blocks (largest carveout)
  long long shared_per_block = 48 * 1024;   // without opting in
  long long reserved_shared_per_block = 0;  // the driver's bytes per block (1 KB since 8.0)
  // Allocation rules of the architecture (architecture_rules() fills them).
  int reg_alloc_unit = 256;  // registers per warp are rounded up to this
  int max_regs_per_thread = 255;
  int sub_partitions = 4;       // registers are split evenly among them
  int shared_alloc_unit = 128;  // bytes
};

// Fills the allocation rules for dev.cc_major/minor (7.x: 256-byte shared units).
void apply_architecture_rules(OccupancyDevice& dev);

// What the kernel needs per thread and per block.
struct KernelUsage {
  int regs_per_thread = 0;
  long long static_shared = 0;
  long long dynamic_shared = 0;
  int max_threads_per_block = 0;  // the kernel's own limit; 0: the device's
};

// Bits of Occupancy::limiters; several are set when they tie.
enum LimiterBit : unsigned {
  kLimitWarps = 1u,      // warp (thread) slots of the SM
  kLimitRegisters = 2u,  // register file
  kLimitShared = 4u,     // shared memory
  kLimitBlocks = 8u,     // resident-block slots
};
constexpr int kUnlimited = INT_MAX;

struct Occupancy {
  int block_threads = 0;
  int warps_per_block = 0;
  int by_warps = 0, by_registers = 0, by_shared = 0, by_blocks = 0;  // blocks per SM each allows
  int blocks_per_sm = 0;                                             // the smallest of them
  unsigned limiters = 0;  // LimiterBit of every limit equal to blocks_per_sm
  int active_warps = 0, max_warps = 0;
  double occupancy = 0;            // active_warps / max_warps
  long long regs_per_block = 0;    // as allocated
  long long shared_per_block = 0;  // as allocated, reserved bytes included
  std::string refusal;             // why not even one block fits (blocks_per_sm == 0)
};

Occupancy occupancy_model(const OccupancyDevice& dev, const KernelUsage& k, int block_threads);

// "registers", "warps and shared memory", ...
std::string limiter_names(unsigned limiters);
// One sentence a student can read, e.g. "8 blocks of 8 warps = 64 of 64 warps
// (100%); limited by warps: 2048 threads per SM".
std::string explain(const Occupancy& o, const OccupancyDevice& dev);

// A block shape with `threads` threads for the suggestion button: x only for
// 1D kernels; for 2D kernels 32 along x (a warp per row, coalesced) when the
// count allows it.
BlockShape shape_for_threads(int threads, bool two_dimensional);

}  // namespace cv
