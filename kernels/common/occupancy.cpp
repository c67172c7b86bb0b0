#include "occupancy.h"

#include <algorithm>
#include <cstdio>

namespace cv {
namespace {

long long round_up(long long x, long long unit) {
  return unit > 0 ? (x + unit - 1) / unit * unit : x;
}
int div_up(int x, int y) {
  return (x + y - 1) / y;
}

}  // namespace

void apply_architecture_rules(OccupancyDevice& dev) {
  dev.reg_alloc_unit = 256;
  dev.sub_partitions = 4;
  // 255 is what a thread can address; the calculator allows 256 from 7.0 on, a
  // count no compiler emits.
  dev.max_regs_per_thread = dev.cc_major >= 7 ? 256 : 255;
  dev.shared_alloc_unit = dev.cc_major >= 8 ? 128 : 256;
}

Occupancy occupancy_model(const OccupancyDevice& dev, const KernelUsage& k, int block_threads) {
  Occupancy o;
  o.block_threads = block_threads;
  const int warp = std::max(dev.warp_size, 1);
  o.max_warps = dev.max_threads_per_sm / warp;
  if (block_threads < 1) {
    o.refusal = "a block needs at least 1 thread";
    return o;
  }
  o.warps_per_block = div_up(block_threads, warp);

  // Threads: the device's and the kernel's own per-block limit, then warp slots.
  const int kernel_max =
      k.max_threads_per_block > 0 ? k.max_threads_per_block : dev.max_threads_per_block;
  if (block_threads > dev.max_threads_per_block || block_threads > kernel_max) {
    const bool kernel = kernel_max < dev.max_threads_per_block;
    o.refusal =
        std::to_string(block_threads) + " threads exceed the " +
        (kernel ? "kernel's limit of " + std::to_string(kernel_max) +
                      " per block (its registers or __launch_bounds__)"
                : "device's limit of " + std::to_string(dev.max_threads_per_block) + " per block");
    o.limiters = kLimitWarps;
    return o;
  }
  o.by_warps = o.max_warps / o.warps_per_block;
  o.by_blocks = dev.max_blocks_per_sm;

  // Registers: per warp rounded to the allocation unit; each sub-partition holds
  // whole warps, and the hardware checks the block as if its warps were spread
  // over all sub-partitions.
  const long long regs_per_warp =
      round_up(static_cast<long long>(k.regs_per_thread) * warp, dev.reg_alloc_unit);
  o.regs_per_block = regs_per_warp * o.warps_per_block;
  const long long regs_assumed = regs_per_warp * round_up(o.warps_per_block, dev.sub_partitions);
  if (k.regs_per_thread > dev.max_regs_per_thread) {
    o.by_registers = 0;
    o.refusal = std::to_string(k.regs_per_thread) + " registers a thread exceed the limit of " +
                std::to_string(dev.max_regs_per_thread);
  } else if (regs_assumed > dev.regs_per_block || o.regs_per_block > dev.regs_per_block) {
    o.by_registers = 0;
    o.refusal = std::to_string(o.warps_per_block) + " warps x " + std::to_string(regs_per_warp) +
                " registers need more than the " + std::to_string(dev.regs_per_block) +
                " registers a block may have";
  } else if (regs_per_warp == 0) {
    o.by_registers = kUnlimited;
  } else {
    const long long warps_per_part =
        (dev.regs_per_sm / std::max(dev.sub_partitions, 1)) / regs_per_warp;
    o.by_registers = static_cast<int>(warps_per_part * dev.sub_partitions / o.warps_per_block);
  }

  // Shared memory: static + dynamic + the driver's reserve, in allocation units.
  const long long used = k.static_shared + k.dynamic_shared + dev.reserved_shared_per_block;
  o.shared_per_block = round_up(used, dev.shared_alloc_unit);
  const long long block_limit =
      dev.shared_per_block + (dev.cc_major >= 8 ? dev.reserved_shared_per_block : 0);
  if (o.shared_per_block > block_limit) {
    o.by_shared = 0;
    o.refusal = std::to_string(k.static_shared + k.dynamic_shared) +
                " bytes of shared memory exceed the " + std::to_string(dev.shared_per_block) +
                " a block may use without opting in";
  } else if (o.shared_per_block == 0) {
    o.by_shared = kUnlimited;
  } else {
    o.by_shared = static_cast<int>(dev.shared_per_sm / o.shared_per_block);
  }

  o.blocks_per_sm = std::min({o.by_warps, o.by_registers, o.by_shared, o.by_blocks});
  if (o.by_warps == o.blocks_per_sm) o.limiters |= kLimitWarps;
  if (o.by_registers == o.blocks_per_sm) o.limiters |= kLimitRegisters;
  if (o.by_shared == o.blocks_per_sm) o.limiters |= kLimitShared;
  if (o.by_blocks == o.blocks_per_sm) o.limiters |= kLimitBlocks;
  o.active_warps = o.blocks_per_sm * o.warps_per_block;
  o.occupancy = o.max_warps > 0 ? static_cast<double>(o.active_warps) / o.max_warps : 0.0;
  if (o.blocks_per_sm == 0 && o.refusal.empty()) o.refusal = "no block fits on an SM";
  return o;
}

std::string limiter_names(unsigned limiters) {
  const std::pair<unsigned, const char*> names[] = {{kLimitWarps, "warps (threads per SM)"},
                                                    {kLimitRegisters, "registers"},
                                                    {kLimitShared, "shared memory"},
                                                    {kLimitBlocks, "blocks per SM"}};
  std::string s;
  for (const auto& [bit, name] : names)
    if (limiters & bit) s += (s.empty() ? "" : " and ") + std::string(name);
  return s.empty() ? "nothing" : s;
}

std::string explain(const Occupancy& o, const OccupancyDevice& dev) {
  if (o.blocks_per_sm == 0) return "cannot launch: " + o.refusal;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "%d blocks of %d warps = %d of %d warps per SM (%.0f%%); limited by %s",
                o.blocks_per_sm, o.warps_per_block, o.active_warps, o.max_warps,
                100.0 * o.occupancy, limiter_names(o.limiters).c_str());
  std::string s = buf;
  if (o.limiters & kLimitWarps)
    s += ": " + std::to_string(dev.max_threads_per_sm) + " threads per SM";
  else if (o.limiters & kLimitBlocks)
    s += ": " + std::to_string(dev.max_blocks_per_sm) + " blocks per SM";
  else if (o.limiters & kLimitRegisters)
    s += ": " + std::to_string(o.regs_per_block) + " of " + std::to_string(dev.regs_per_sm) +
         " registers a block";
  else if (o.limiters & kLimitShared)
    s += ": " + std::to_string(o.shared_per_block) + " of " + std::to_string(dev.shared_per_sm) +
         " bytes a block";
  return s;
}

BlockShape shape_for_threads(int threads, bool two_dimensional) {
  threads = std::max(threads, 1);
  if (!two_dimensional) return BlockShape{threads, 1, 1};
  const int x = threads >= 32 && threads % 32 == 0 ? 32 : threads;
  return BlockShape{x, threads / x, 1};
}

}  // namespace cv
