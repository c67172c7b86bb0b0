#pragma once
// The fountain's kernels as the memory view models them (insight/access_model.h):
// the index functions the kernels call (fountain_math.h), their loads and stores.
#include <optional>
#include <string>

#include "insight/access_model.h"

namespace cv::insight {

// variant "lean" or "original" (nullopt for another); count particles (make_grid's layout).
std::optional<AccessKernel> fountain_access_kernel(const std::string& variant, unsigned count,
                                                   const BlockShape& block);

}  // namespace cv::insight
