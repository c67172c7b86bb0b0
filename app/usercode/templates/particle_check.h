#pragma once
// The scene templates' check: the student's `out` particles against the
// built-in kernel's after the same steps, each float4 within 1e-3 (relative),
// and the rules the particle scenes' templates share.
#include <vector_types.h>

#include <vector>

#include "usercode/templates/template_spec.h"

namespace cv::usercode {

// `ref`: the built-in's positions; `rb["out"]`: the student's (4 floats a particle).
CheckResult particles_match(const std::vector<float4>& ref, const ReadBack& rb, unsigned n);

// The built-in's particles after `steps` steps from the workload's start (the backend's own).
using BuiltinPositions = std::vector<float4> (*)(Backend backend, const Workload& w, int steps);
// What the particle scenes' templates share (fountain, swarm): ping-pong `in` and
// `out`, checked after 120 steps against `builtin`, 65,536 particles in 16 x 16
// blocks by default, particles/s.
void particle_scene_rules(TemplateSpec& t, BuiltinPositions builtin);

}  // namespace cv::usercode
