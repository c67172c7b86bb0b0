#pragma once
// The swarm's step kernel as the memory view models it (insight/access_model.h):
// swarm.cu's thread layout (rows over y and z), its loads and stores.
#include "insight/access_model.h"

namespace cv::insight {

AccessKernel swarm_access_kernel(unsigned count, const BlockShape& block);

}  // namespace cv::insight
