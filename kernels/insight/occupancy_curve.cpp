#include "insight/occupancy_curve.h"

#include <algorithm>

namespace cv::insight {

std::vector<CurvePoint> occupancy_curve(const OccupancyDevice& dev, const KernelUsage& use) {
  std::vector<CurvePoint> out;
  const int warp = std::max(1, dev.warp_size);
  int top = dev.max_threads_per_block;
  if (use.max_threads_per_block > 0) top = std::min(top, use.max_threads_per_block);
  for (int t = warp; t <= top; t += warp) {
    const Occupancy o = occupancy_model(dev, use, t);
    out.push_back({t, o.blocks_per_sm > 0 ? o.occupancy : 0.0, o.blocks_per_sm, o.limiters});
  }
  return out;
}

}  // namespace cv::insight
