#pragma once
// The scalars the fountain scene feeds the fountain's templates
// (scenes/fountain_user_kernel.cpp puts them, fountain_parts.cpp declares them).
#include "fountain/fountain.h"
#include "usercode/templates/scalar_key.h"

namespace cv::usercode::fountain_args {
inline constexpr ScalarKey<fountain::Params> params{"p", "cv::Params"};
inline constexpr ScalarKey<fountain::Frame> frame{"f", "cv::Frame"};
}  // namespace cv::usercode::fountain_args
