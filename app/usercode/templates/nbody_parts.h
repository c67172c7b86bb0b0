#pragma once
// The n-body force kernel's arguments, launch shape, sizes and check: the
// student's kernel computes every body's acceleration (without G) from the
// padded bodies; the scene integrates them (nbody::NBodyGpu / NBodyCpu
// step_with), bench and the check read them back.
#include <vector>

#include <vector_types.h>

#include "usercode/templates/template_spec.h"

namespace cv::usercode::nbody_template {

// Bodies after n, zero mass: a tile of up to 1024 threads may read past n untested.
constexpr unsigned kPad = 1024;

// The student's accelerations against the CPU twin's math for the same
// bodies: each checked body within 1e-3 * (|a_ref| + rms |a_ref|). Up to
// `samples` bodies spread over all n are checked (all of them when n is small).
struct AccelCheck {
  long long checked = 0, matching = 0;
  double worst = 0;  // the largest |a - a_ref| / (|a_ref| + rms |a_ref|)
};
AccelCheck check_accelerations(const std::vector<float4>& bodies, unsigned n, float eps2,
                               const std::vector<float4>& acc, unsigned samples = 2048);

void fill(TemplateSpec& t);

}  // namespace cv::usercode::nbody_template
