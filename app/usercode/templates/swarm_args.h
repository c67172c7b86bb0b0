#pragma once
// The scalars the swarm scene feeds the swarm's template
// (scenes/swarm_user_kernel.cpp puts them, swarm_parts.cpp declares them).
#include "swarm/swarm.h"
#include "usercode/templates/scalar_key.h"

namespace cv::usercode::swarm_args {
inline constexpr ScalarKey<float3> target{"target", "float3"};
inline constexpr ScalarKey<unsigned> key{"key", "unsigned"};
inline constexpr ScalarKey<swarm::Variant> variant{"v", "cv::swarm::Variant"};
inline constexpr ScalarKey<swarm::Params> params{"p", "cv::swarm::Params"};
}  // namespace cv::usercode::swarm_args
