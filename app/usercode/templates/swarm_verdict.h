#pragma once
// The swarm templates' test set: states built directly for both variants
// (the swarm steering to its target, the sparkler bursting, falling and
// slowing) and for respawns, checked against the built-in's math
// (kernels/swarm/swarm_math.h) stepped from the same state, each component
// within a tolerance derived from float32 rounding (docs/kernels.md, "Tolerances").
#include <vector>

#include "usercode/templates/template_spec.h"

namespace cv::usercode::swarm_verdict {

// The swarm templates' cases, in order (the demo's default first).
std::vector<VerdictCase> cases();

}  // namespace cv::usercode::swarm_verdict
