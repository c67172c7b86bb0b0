#include "arch_limits.h"

namespace cv {

const std::vector<ArchLimits>& arch_limits_table() {
  constexpr long long K = 1024;
  // cc, family, examples, threads/SM, warps/SM, blocks/SM, regs/SM, regs/block,
  // regs/thread, reg unit, shared/SM, shared/block, opt-in, reserved, shared unit
  static const std::vector<ArchLimits> table = {
      {7, 5, "Turing", "RTX 20xx, GTX 16xx, T4, Quadro RTX", 1024, 32, 16, 65536, 65536, 255, 256,
       64 * K, 48 * K, 64 * K, 0, 256},
      {8, 0, "Ampere", "A100, A30", 2048, 64, 32, 65536, 65536, 255, 256, 164 * K, 48 * K, 163 * K,
       1 * K, 128},
      {8, 6, "Ampere", "RTX 30xx, A10, A40, RTX A-series", 1536, 48, 16, 65536, 65536, 255, 256,
       100 * K, 48 * K, 99 * K, 1 * K, 128},
      {8, 7, "Ampere", "Jetson AGX Orin, Orin NX/Nano", 1536, 48, 16, 65536, 65536, 255, 256,
       164 * K, 48 * K, 163 * K, 1 * K, 128},
      {8, 9, "Ada", "RTX 40xx, L4, L40", 1536, 48, 24, 65536, 65536, 255, 256, 100 * K, 48 * K,
       99 * K, 1 * K, 128},
      {9, 0, "Hopper", "H100, H200, GH200", 2048, 64, 32, 65536, 65536, 255, 256, 228 * K, 48 * K,
       227 * K, 1 * K, 128},
      {10, 0, "Blackwell", "B200, GB200", 2048, 64, 32, 65536, 65536, 255, 256, 228 * K, 48 * K,
       227 * K, 1 * K, 128},
      {12, 0, "Blackwell", "RTX 50xx, RTX PRO 6000 Blackwell", 1536, 48, 24, 65536, 65536, 255, 256,
       100 * K, 48 * K, 99 * K, 1 * K, 128},
  };
  return table;
}

const ArchLimits* find_arch_limits(int cc_major, int cc_minor) {
  for (const ArchLimits& a : arch_limits_table())
    if (a.cc_major == cc_major && a.cc_minor == cc_minor) return &a;
  return nullptr;
}

OccupancyDevice occupancy_device(const ArchLimits& a) {
  OccupancyDevice d;
  d.cc_major = a.cc_major;
  d.cc_minor = a.cc_minor;
  d.max_threads_per_sm = a.max_threads_per_sm;
  d.max_blocks_per_sm = a.max_blocks_per_sm;
  d.regs_per_sm = a.regs_per_sm;
  d.regs_per_block = a.regs_per_block;
  d.shared_per_sm = a.shared_per_sm;
  d.shared_per_block = a.shared_per_block;
  d.reserved_shared_per_block = a.reserved_shared_per_block;
  apply_architecture_rules(d);
  return d;
}

}  // namespace cv
