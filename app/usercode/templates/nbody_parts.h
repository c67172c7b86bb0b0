#pragma once
// The n-body force kernel's arguments, launch shape, sizes and check: the
// student's kernel computes every body's acceleration (without G) from the
// padded bodies; the scene integrates them (nbody::NBodyGpu / NBodyCpu
// step_with), bench and the check read them back.
#include <optional>
#include <vector>

#include <vector_types.h>

#include "usercode/templates/template_spec.h"

namespace cv::usercode::nbody_template {

// Bodies after n, zero mass: a tile of up to 1024 threads may read past n untested.
constexpr unsigned kPad = 1024;

// The student's accelerations against the CPU twin's math for the same
// bodies (accumulate, bodies in order), each component within a bound on the
// spread of two correct float32 sums (docs/kernels.md, "Tolerances"):
// (2 (n + kPad - 1) + 52) u sum_j |m_j d_j / (r_j^2 + eps2)^(3/2)|, u = 2^-24.
// Every body when n <= `samples`, else `samples` bodies drawn from `seed`
// (the first and last among them).
struct AccelCheck {
  long long checked = 0, matching = 0;
  double worst = 0;  // the largest |a - a_ref| / tolerance over the checked components
  std::optional<Mismatch> first;
};
// The checked bodies' reference accelerations and tolerances (the costly
// part, made before the launch), then the accelerations against them.
struct AccelReference {
  std::vector<unsigned> which;  // the bodies checked
  std::vector<float3> value;
  std::vector<double> tol;      // 3 a body
};
AccelReference accel_reference(const std::vector<float4>& bodies, unsigned n, float eps2, unsigned samples = 2048,
                               uint64_t seed = 1);
AccelCheck compare_accelerations(const AccelReference& ref, unsigned n, const std::vector<float4>& acc);
AccelCheck check_accelerations(const std::vector<float4>& bodies, unsigned n, float eps2,
                               const std::vector<float4>& acc, unsigned samples = 2048, uint64_t seed = 1);

void fill(TemplateSpec& t);

}  // namespace cv::usercode::nbody_template
