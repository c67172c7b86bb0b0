#pragma once
// The stoppable tree reduction on the GPU: one block of p threads runs `stop`
// steps of a variant and every thread's value is read back.
#include <cstdint>
#include <vector>

#include "common/cuda_resources.h"
#include "insight/tree_steps.h"

namespace cv::insight {

class TreeStepsGpu {
 public:
  // Runs on the legacy default stream and waits (tiny: at most 1024 values).
  // `padded`: a power of two in [64, 1024]; stop <= tree_steps(size).
  // Throws std::invalid_argument on bad sizes, CudaError on CUDA failures.
  std::vector<int32_t> run(TreeVariant v, const std::vector<int32_t>& padded, unsigned stop);

 private:
  DeviceBuffer<int32_t> in_{kMaxElements}, out_{kMaxElements};
};

}  // namespace cv::insight
