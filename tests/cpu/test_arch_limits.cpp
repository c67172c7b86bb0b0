// The per-compute-capability table (kernels/common/arch_limits.h) against the
// CUDA toolkit's occupancy calculator (cuda_occupancy.h: its own per-architecture
// block limits, allocation granularities and shared-memory configurations), and
// the occupancy model on each architecture against that calculator.
#include <cuda_occupancy.h>
#include <gtest/gtest.h>

#include "common/arch_limits.h"

using namespace cv;

namespace {

cudaOccDeviceProp toolkit_props(const ArchLimits& a) {
  cudaOccDeviceProp p;
  p.computeMajor = a.cc_major;
  p.computeMinor = a.cc_minor;
  p.maxThreadsPerBlock = 1024;
  p.maxThreadsPerMultiprocessor = a.max_threads_per_sm;
  p.regsPerBlock = a.regs_per_block;
  p.regsPerMultiprocessor = a.regs_per_sm;
  p.warpSize = 32;
  p.sharedMemPerBlock = static_cast<size_t>(a.shared_per_block);
  p.sharedMemPerMultiprocessor = static_cast<size_t>(a.shared_per_sm);
  p.numSms = 40;
  p.sharedMemPerBlockOptin = static_cast<size_t>(a.shared_per_block_optin);
  p.reservedSharedMemPerBlock = static_cast<size_t>(a.reserved_shared_per_block);
  return p;
}

}  // namespace

TEST(ArchLimits, EverySupportedCapabilityIsThere) {
  const std::pair<int, int> ccs[] = {{7, 5}, {8, 0}, {8, 6},  {8, 7},
                                     {8, 9}, {9, 0}, {10, 0}, {12, 0}};
  ASSERT_EQ(arch_limits_table().size(), std::size(ccs));
  for (auto [major, minor] : ccs) EXPECT_NE(find_arch_limits(major, minor), nullptr);
  EXPECT_EQ(find_arch_limits(6, 1), nullptr);  // Pascal: not a CUDA 13 GPU
}

TEST(ArchLimits, PublishedNumbers) {
  // Spot checks a reader can hold against the Programming Guide's table.
  const ArchLimits* t = find_arch_limits(7, 5);
  EXPECT_EQ(t->max_threads_per_sm, 1024);
  EXPECT_EQ(t->max_blocks_per_sm, 16);
  EXPECT_EQ(t->shared_per_block_optin, 64 * 1024);
  EXPECT_EQ(t->reserved_shared_per_block, 0);
  const ArchLimits* ga = find_arch_limits(8, 6);
  EXPECT_EQ(ga->max_threads_per_sm, 1536);
  EXPECT_EQ(ga->shared_per_sm, 100 * 1024);
  EXPECT_EQ(find_arch_limits(8, 9)->max_blocks_per_sm, 24);
  EXPECT_EQ(find_arch_limits(9, 0)->shared_per_block_optin, 227 * 1024);
  EXPECT_EQ(find_arch_limits(12, 0)->max_warps_per_sm, 48);
}

TEST(ArchLimits, ConsistentWithItself) {
  for (const ArchLimits& a : arch_limits_table()) {
    SCOPED_TRACE(std::to_string(a.cc_major) + "." + std::to_string(a.cc_minor));
    EXPECT_EQ(a.max_warps_per_sm * 32, a.max_threads_per_sm);
    EXPECT_EQ(a.shared_per_block_optin, a.shared_per_sm - a.reserved_shared_per_block);
    EXPECT_LE(a.shared_per_block, a.shared_per_block_optin);
    // The model's allocation rules for this architecture agree with the table.
    const OccupancyDevice d = occupancy_device(a);
    EXPECT_EQ(d.shared_alloc_unit, a.shared_alloc_unit);
    EXPECT_EQ(d.reg_alloc_unit, a.reg_alloc_unit);
  }
}

TEST(ArchLimits, MatchesToolkitCalculatorRules) {
  for (const ArchLimits& a : arch_limits_table()) {
    SCOPED_TRACE(std::to_string(a.cc_major) + "." + std::to_string(a.cc_minor));
    const cudaOccDeviceProp p = toolkit_props(a);
    int v = 0;
    ASSERT_EQ(cudaOccMaxBlocksPerMultiprocessor(&v, &p), CUDA_OCC_SUCCESS);
    EXPECT_EQ(v, a.max_blocks_per_sm);
    ASSERT_EQ(cudaOccSMemAllocationGranularity(&v, &p), CUDA_OCC_SUCCESS);
    EXPECT_EQ(v, a.shared_alloc_unit);
    ASSERT_EQ(cudaOccRegAllocationGranularity(&v, &p), CUDA_OCC_SUCCESS);
    EXPECT_EQ(v, a.reg_alloc_unit);
    // The largest shared-memory carveout the calculator knows is the table's per-SM figure.
    size_t biggest = static_cast<size_t>(a.shared_per_sm);
    EXPECT_EQ(cudaOccAlignUpShmemSizeVoltaPlus(&biggest, &p), CUDA_OCC_SUCCESS);
    EXPECT_EQ(biggest, static_cast<size_t>(a.shared_per_sm));
    size_t more = static_cast<size_t>(a.shared_per_sm) + 1;
    EXPECT_NE(cudaOccAlignUpShmemSizeVoltaPlus(&more, &p), CUDA_OCC_SUCCESS);
  }
}

TEST(ArchLimits, OccupancyModelAgreesOnEveryArchitecture) {
  int cases = 0;
  for (const ArchLimits& a : arch_limits_table()) {
    const OccupancyDevice d = occupancy_device(a);
    const cudaOccDeviceProp p = toolkit_props(a);
    for (int regs : {16, 32, 40, 64, 72, 128, 255}) {
      for (long long dyn_per_thread : {0ll, 8ll, 48ll}) {
        for (int threads : {32, 64, 96, 128, 256, 384, 512, 768, 1024}) {
          KernelUsage k;
          k.regs_per_thread = regs;
          k.dynamic_shared = dyn_per_thread * threads;
          cudaOccFuncAttributes fa;
          fa.maxThreadsPerBlock = 1024;
          fa.numRegs = regs;
          fa.sharedSizeBytes = 0;
          cudaOccDeviceState s;
          cudaOccResult r{};
          ASSERT_EQ(cudaOccMaxActiveBlocksPerMultiprocessor(&r, &p, &fa, &s, threads,
                                                            static_cast<size_t>(k.dynamic_shared)),
                    CUDA_OCC_SUCCESS);
          ASSERT_EQ(occupancy_model(d, k, threads).blocks_per_sm, r.activeBlocksPerMultiprocessor)
              << a.cc_major << "." << a.cc_minor << " " << regs << " regs " << threads
              << " threads " << k.dynamic_shared << " B";
          ++cases;
        }
      }
    }
  }
  EXPECT_EQ(cases, 8 * 7 * 3 * 9);
}

TEST(ArchLimits, HandWorkedOccupancy) {
  // 256 threads, 32 registers, no shared memory: threads per SM decide.
  KernelUsage k;
  k.regs_per_thread = 32;
  EXPECT_EQ(occupancy_model(occupancy_device(*find_arch_limits(7, 5)), k, 256).blocks_per_sm, 4);
  EXPECT_EQ(occupancy_model(occupancy_device(*find_arch_limits(8, 6)), k, 256).blocks_per_sm, 6);
  EXPECT_EQ(occupancy_model(occupancy_device(*find_arch_limits(9, 0)), k, 256).blocks_per_sm, 8);
  // 64-thread blocks: Ada's 24 block slots cap it below its 48 warp slots / 2 = 24 (a tie),
  // Ampere 8.6's 16 slots cap it at 16 blocks = 32 of 48 warps.
  const Occupancy ada = occupancy_model(occupancy_device(*find_arch_limits(8, 9)), k, 64);
  EXPECT_EQ(ada.blocks_per_sm, 24);
  const Occupancy ga = occupancy_model(occupancy_device(*find_arch_limits(8, 6)), k, 64);
  EXPECT_EQ(ga.blocks_per_sm, 16);
  EXPECT_EQ(ga.limiters, kLimitBlocks);
  // 40 KiB of shared memory a block: 1 block on Turing (64 KiB), 2 on 8.6 (100 KiB), 5 on 9.0.
  k.dynamic_shared = 40 * 1024;
  EXPECT_EQ(occupancy_model(occupancy_device(*find_arch_limits(7, 5)), k, 128).blocks_per_sm, 1);
  EXPECT_EQ(occupancy_model(occupancy_device(*find_arch_limits(8, 6)), k, 128).blocks_per_sm, 2);
  EXPECT_EQ(occupancy_model(occupancy_device(*find_arch_limits(9, 0)), k, 128).blocks_per_sm, 5);
}
