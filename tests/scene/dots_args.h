#pragma once
// The scalars the test-only dots scene feeds its template, named and typed
// once (dots_template.cpp declares them, dots_user_kernel.cpp puts them).
#include "usercode/templates/scalar_key.h"

namespace cv::usercode::dots_args {
inline constexpr ScalarKey<float> turn{"turn", "float"};           // radians turned so far
inline constexpr ScalarKey<unsigned> spiral{"spiral", "unsigned"};  // 1: the spiral, 0: the ring
}  // namespace cv::usercode::dots_args
