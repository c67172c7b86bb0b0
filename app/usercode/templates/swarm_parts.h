#pragma once
// What the swarm's two templates (the whole kernel, the per-particle
// function) share: the app's swarm math in the prelude, the kernel's
// arguments, its launch shape and sizes, and the check against the built-in
// swarm kernel (its CPU twin on the CPU backend).
#include <string>

#include "usercode/templates/template_spec.h"

namespace cv::usercode::swarm_template {

// The prelude text before the declaration: the standard names and
// kernels/swarm/swarm_math.h itself (embedded at build time).
std::string math_prelude();
// Feeds, arguments, shape, swaps, check and bench defaults into `t`.
void fill(TemplateSpec& t);

}  // namespace cv::usercode::swarm_template
