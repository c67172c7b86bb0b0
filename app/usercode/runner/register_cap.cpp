#include "usercode/runner/register_cap.h"

#include <algorithm>

namespace cv::usercode::runner {

int resident_warps(int registers, const OccupancyDevice& dev) {
  // One-warp blocks: the model's register limit in blocks is then in warps.
  KernelUsage k;
  k.regs_per_thread = registers;
  const Occupancy o = occupancy_model(dev, k, dev.warp_size);
  return std::min(o.max_warps, o.by_registers);
}

int register_cap(int raw, int guarded, const OccupancyDevice& dev) {
  if (raw <= 0 || guarded <= raw || dev.regs_per_sm <= 0) return 0;
  const int want = resident_warps(raw, dev);
  if (resident_warps(guarded, dev) >= want) return 0;
  int cap = raw;
  for (int r = raw + 1; r < guarded && r <= dev.max_regs_per_thread; ++r)
    if (resident_warps(r, dev) >= want) cap = r;
  return cap;
}

}  // namespace cv::usercode::runner
