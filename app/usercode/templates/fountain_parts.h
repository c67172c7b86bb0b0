#pragma once
// What the fountain's two templates (the whole kernel, the per-particle
// function) share: the kernel's arguments, its launch shape and sizes, and
// the check against the built-in lean kernel.
#include "usercode/templates/template_spec.h"

namespace cv::usercode::fountain_template {

// Feeds, arguments, shape, swaps, check and bench defaults into `t`.
void fill(TemplateSpec& t);

}  // namespace cv::usercode::fountain_template
