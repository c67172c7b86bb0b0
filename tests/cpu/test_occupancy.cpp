// The occupancy model on made-up devices: hand-worked limits (threads,
// registers, shared memory, blocks), refusals, and a sweep of kernels and block
// sizes against the CUDA toolkit's own calculator (cuda_occupancy.h, pure host
// code, so this runs without a GPU).
#include <cuda_occupancy.h>
#include <gtest/gtest.h>

#include "common/device_report.h"
#include "common/occupancy.h"

using namespace cv;

namespace {

OccupancyDevice h100_like() {
  OccupancyDevice d;
  d.cc_major = 9;
  d.cc_minor = 0;
  d.max_threads_per_sm = 2048;
  d.max_blocks_per_sm = 32;
  d.regs_per_sm = d.regs_per_block = 65536;
  d.shared_per_sm = 233472;  // 228 KiB
  d.shared_per_block = 49152;
  d.reserved_shared_per_block = 1024;
  apply_architecture_rules(d);
  return d;
}

// A small device: 8.6-like limits (1536 threads, 16 blocks, 100 KiB shared per SM).
OccupancyDevice small_fake() {
  OccupancyDevice d;
  d.cc_major = 8;
  d.cc_minor = 6;
  d.max_threads_per_sm = 1536;
  d.max_blocks_per_sm = 16;
  d.regs_per_sm = d.regs_per_block = 65536;
  d.shared_per_sm = 102400;
  d.shared_per_block = 49152;
  d.reserved_shared_per_block = 1024;
  apply_architecture_rules(d);
  return d;
}

// Turing-like: 1024 threads and 16 blocks per SM, 64 KiB shared, 256-byte units, no reserve.
OccupancyDevice turing_like() {
  OccupancyDevice d;
  d.cc_major = 7;
  d.cc_minor = 5;
  d.max_threads_per_sm = 1024;
  d.max_blocks_per_sm = 16;
  d.regs_per_sm = d.regs_per_block = 65536;
  d.shared_per_sm = 65536;
  d.shared_per_block = 49152;
  d.reserved_shared_per_block = 0;
  apply_architecture_rules(d);
  return d;
}

KernelUsage usage(int regs, long long static_shared = 0, long long dynamic_shared = 0) {
  KernelUsage k;
  k.regs_per_thread = regs;
  k.static_shared = static_shared;
  k.dynamic_shared = dynamic_shared;
  return k;
}

}  // namespace

TEST(OccupancyModel, LimitedByThreads) {
  // 32 registers, no shared memory, 256 threads: 8 blocks fill 2048 threads.
  const Occupancy o = occupancy_model(h100_like(), usage(32), 256);
  EXPECT_EQ(o.warps_per_block, 8);
  EXPECT_EQ(o.by_warps, 8);
  EXPECT_EQ(o.by_registers, 8);  // 65536 / (32 * 32 * 8): a tie
  EXPECT_EQ(o.blocks_per_sm, 8);
  EXPECT_EQ(o.active_warps, 64);
  EXPECT_DOUBLE_EQ(o.occupancy, 1.0);
  EXPECT_TRUE(o.limiters & kLimitWarps);
  EXPECT_TRUE(o.limiters & kLimitRegisters);
  EXPECT_FALSE(o.limiters & kLimitShared);
}

TEST(OccupancyModel, LimitedByRegisters) {
  // 128 registers a thread: 4096 a warp, 4 warps per sub-partition, 16 warps per SM.
  const Occupancy o = occupancy_model(h100_like(), usage(128), 256);
  EXPECT_EQ(o.by_warps, 8);
  EXPECT_EQ(o.by_registers, 2);
  EXPECT_EQ(o.blocks_per_sm, 2);
  EXPECT_EQ(o.limiters, kLimitRegisters);
  EXPECT_DOUBLE_EQ(o.occupancy, 16.0 / 64.0);
  EXPECT_NE(explain(o, h100_like()).find("limited by registers"), std::string::npos);
}

TEST(OccupancyModel, RegisterRoundingPerWarp) {
  // 40 registers -> 1280 a warp (already a multiple of 256); 72 -> 2304.
  EXPECT_EQ(occupancy_model(h100_like(), usage(40), 128).by_registers, 12);  // 12 warps/part / 4
  EXPECT_EQ(occupancy_model(h100_like(), usage(72), 128).by_registers, 7);   // 7 warps/part * 4 / 4
}

TEST(OccupancyModel, LimitedBySharedMemory) {
  // 16 B a thread at 256 threads (the tiled n-body) is 4 KiB + 1 KiB reserve: 45 blocks
  // fit in 228 KiB, so threads limit first; 40 KiB a block leaves room for 5.
  const Occupancy tiled = occupancy_model(h100_like(), usage(32, 0, 16 * 256), 256);
  EXPECT_EQ(tiled.shared_per_block, 5120);
  EXPECT_EQ(tiled.by_shared, 45);
  EXPECT_EQ(tiled.limiters, kLimitWarps | kLimitRegisters);
  const Occupancy big = occupancy_model(h100_like(), usage(32, 8192, 32768), 128);
  EXPECT_EQ(big.shared_per_block, 8192 + 32768 + 1024);
  EXPECT_EQ(big.by_shared, 233472 / (8192 + 32768 + 1024));
  EXPECT_EQ(big.blocks_per_sm, 5);
  EXPECT_EQ(big.limiters, kLimitShared);
}

TEST(OccupancyModel, LimitedByBlockSlots) {
  // 32-thread blocks: 64 warp slots would take 64 blocks; the SM holds 32 (16 on the small one).
  const Occupancy h = occupancy_model(h100_like(), usage(16), 32);
  EXPECT_EQ(h.blocks_per_sm, 32);
  EXPECT_EQ(h.limiters, kLimitBlocks);
  EXPECT_DOUBLE_EQ(h.occupancy, 0.5);
  const Occupancy s = occupancy_model(small_fake(), usage(16), 1);  // the document's 1x1 block
  EXPECT_EQ(s.warps_per_block, 1);
  EXPECT_EQ(s.blocks_per_sm, 16);
  EXPECT_EQ(s.limiters, kLimitBlocks);
  EXPECT_NEAR(s.occupancy, 16.0 / 48.0, 1e-12);
}

TEST(OccupancyModel, Refusals) {
  const Occupancy too_many = occupancy_model(h100_like(), usage(32), 2048);
  EXPECT_EQ(too_many.blocks_per_sm, 0);
  EXPECT_NE(too_many.refusal.find("device's limit of 1024"), std::string::npos);
  KernelUsage bounded = usage(64);
  bounded.max_threads_per_block = 512;  // __launch_bounds__(512)
  const Occupancy lb = occupancy_model(h100_like(), bounded, 1024);
  EXPECT_EQ(lb.blocks_per_sm, 0);
  EXPECT_NE(lb.refusal.find("kernel's limit of 512"), std::string::npos);
  const Occupancy regs = occupancy_model(h100_like(), usage(128), 1024);  // 128 x 1024 > 65536
  EXPECT_EQ(regs.blocks_per_sm, 0);
  EXPECT_NE(regs.refusal.find("registers"), std::string::npos);
  const Occupancy shared = occupancy_model(h100_like(), usage(32, 0, 48 * 1024 + 16), 256);
  EXPECT_EQ(shared.blocks_per_sm, 0);
  EXPECT_NE(shared.refusal.find("shared memory"), std::string::npos);
  EXPECT_NE(explain(shared, h100_like()).find("cannot launch"), std::string::npos);
}

TEST(OccupancyModel, LimiterNames) {
  EXPECT_EQ(limiter_names(kLimitRegisters), "registers");
  EXPECT_EQ(limiter_names(kLimitWarps | kLimitShared), "warps (threads per SM) and shared memory");
  EXPECT_EQ(limiter_names(0), "nothing");
}

TEST(OccupancyModel, ShapeForThreads) {
  EXPECT_EQ(shape_for_threads(768, false), (BlockShape{768, 1, 1}));
  EXPECT_EQ(shape_for_threads(768, true), (BlockShape{32, 24, 1}));
  EXPECT_EQ(shape_for_threads(1024, true), (BlockShape{32, 32, 1}));
  EXPECT_EQ(shape_for_threads(48, true), (BlockShape{48, 1, 1}));  // not a multiple of 32
  EXPECT_EQ(shape_for_threads(0, true), (BlockShape{1, 1, 1}));
}

// The toolkit's calculator on the same made-up device and kernel.
int toolkit_blocks(const OccupancyDevice& d, const KernelUsage& k, int threads, unsigned* limits) {
  cudaOccDeviceProp p;
  p.computeMajor = d.cc_major;
  p.computeMinor = d.cc_minor;
  p.maxThreadsPerBlock = d.max_threads_per_block;
  p.maxThreadsPerMultiprocessor = d.max_threads_per_sm;
  p.regsPerBlock = d.regs_per_block;
  p.regsPerMultiprocessor = d.regs_per_sm;
  p.warpSize = d.warp_size;
  p.sharedMemPerBlock = static_cast<size_t>(d.shared_per_block);
  p.sharedMemPerMultiprocessor = static_cast<size_t>(d.shared_per_sm);
  p.numSms = 100;
  p.sharedMemPerBlockOptin = static_cast<size_t>(d.shared_per_block);
  p.reservedSharedMemPerBlock = static_cast<size_t>(d.reserved_shared_per_block);
  cudaOccFuncAttributes a;
  a.maxThreadsPerBlock = d.max_threads_per_block;
  a.numRegs = k.regs_per_thread;
  a.sharedSizeBytes = static_cast<size_t>(k.static_shared);
  cudaOccDeviceState s;
  cudaOccResult r{};
  EXPECT_EQ(cudaOccMaxActiveBlocksPerMultiprocessor(&r, &p, &a, &s, threads,
                                                    static_cast<size_t>(k.dynamic_shared)),
            CUDA_OCC_SUCCESS);
  *limits = 0;
  if (r.limitingFactors & OCC_LIMIT_WARPS) *limits |= kLimitWarps;
  if (r.limitingFactors & OCC_LIMIT_REGISTERS) *limits |= kLimitRegisters;
  if (r.limitingFactors & OCC_LIMIT_SHARED_MEMORY) *limits |= kLimitShared;
  if (r.limitingFactors & OCC_LIMIT_BLOCKS) *limits |= kLimitBlocks;
  return r.activeBlocksPerMultiprocessor;
}

TEST(OccupancyModel, AgreesWithToolkitCalculator) {
  int cases = 0;
  for (const OccupancyDevice& d : {h100_like(), small_fake(), turing_like()}) {
    for (int regs : {8, 16, 24, 32, 40, 56, 64, 72, 96, 128, 168, 255}) {
      for (long long st : {0ll, 1000ll, 4096ll, 20000ll}) {
        for (long long per_thread : {0ll, 4ll, 16ll, 40ll}) {
          for (int threads : {1, 7, 32, 33, 64, 96, 128, 160, 192, 256, 384, 512, 640, 768, 1024}) {
            const KernelUsage k = usage(regs, st, per_thread * threads);
            unsigned tk_limits = 0;
            const int tk = toolkit_blocks(d, k, threads, &tk_limits);
            const Occupancy o = occupancy_model(d, k, threads);
            ASSERT_EQ(o.blocks_per_sm, tk)
                << "cc " << d.cc_major << "." << d.cc_minor << ", " << regs << " regs, " << st
                << " + " << per_thread << "*" << threads << " B shared, " << threads << " threads";
            if (tk > 0)
              ASSERT_EQ(o.limiters, tk_limits) << regs << " regs, " << threads << " threads";
            ++cases;
          }
        }
      }
    }
  }
  EXPECT_GT(cases, 2000);
}

TEST(DeviceReport, RowsAndConversion) {
  DeviceReport d;
  d.unavailable_reason = "cudaGetDeviceCount: cudaErrorInsufficientDriver";
  auto rows = device_rows(d);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_NE(rows[0].second.find("cudaErrorInsufficientDriver"), std::string::npos);

  d.available = true;
  d.name = "Fake H100";
  d.cc_major = 9;
  d.warp_size = 32;
  d.max_threads_per_sm = 2048;
  d.regs_per_sm = 65536;
  d.mem_clock_khz = 2619000;
  d.mem_bus_bits = 5120;
  rows = device_rows(d);
  EXPECT_EQ(rows[0].second, "Fake H100");
  EXPECT_NEAR(peak_memory_gb_per_s(d), 3352.3, 0.1);  // H100 SXM's 3.35 TB/s
  const OccupancyDevice o = to_occupancy_device(d);
  EXPECT_EQ(o.shared_alloc_unit, 128);
  EXPECT_EQ(o.regs_per_sm, 65536);
  // Without a driver the real report says why, never pretends.
  if (!device_report().available) EXPECT_FALSE(device_report().unavailable_reason.empty());
}
