#pragma once
// The scalar the n-body scene feeds the n-body forces template
// (scenes/nbody_user_kernel.cpp puts it, nbody_parts.cpp declares it).
#include "usercode/templates/scalar_key.h"

namespace cv::usercode::nbody_args {
inline constexpr ScalarKey<float> eps2{"eps2", "float"};  // softening squared
}  // namespace cv::usercode::nbody_args
