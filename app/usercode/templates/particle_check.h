#pragma once
// The scene templates' check: the student's `out` particles against the
// built-in kernel's after the same steps, each float4 within 1e-3 (relative).
#include <vector_types.h>

#include <vector>

#include "usercode/template_spec.h"

namespace cv::usercode {

// `ref`: the built-in's positions; `rb["out"]`: the student's (4 floats a particle).
CheckResult particles_match(const std::vector<float4>& ref, const ReadBack& rb, unsigned n);

}  // namespace cv::usercode
