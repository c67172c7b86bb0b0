#pragma once
// Theoretical occupancy of one kernel for every block size from one warp to
// the limit, in steps of a warp, with what limits each (common/occupancy.h).
#include <vector>

#include "common/occupancy.h"

namespace cv::insight {

struct CurvePoint {
  int threads = 0;
  double occupancy = 0;  // 0 when the block cannot launch
  int blocks_per_sm = 0;
  unsigned limiters = 0;  // LimiterBit
};

// Block sizes warp_size, 2*warp_size, ... up to the smaller of the device's
// and the kernel's max threads per block.
std::vector<CurvePoint> occupancy_curve(const OccupancyDevice& dev, const KernelUsage& use);

}  // namespace cv::insight
