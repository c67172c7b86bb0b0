// The fountain's step as a whole __global__ kernel.
#include "usercode/templates/template_registry.h"
#include "usercode/templates/fountain_parts.h"

namespace cv::usercode {
namespace {

TemplateSpec spec() {
  TemplateSpec t;
  t.name = "fountain_kernel";
  t.description = "The fountain's step as a whole __global__ kernel: indexing and launch shape are yours.";
  t.file = "fountain_kernel.cu";
  t.order = 10;
  fountain_template::fill(t);
  t.notes =
      "// The app launches it every step as a 2D grid of 2D blocks:\n"
      "// grid = ceil(width / block.x) x ceil(height / block.y).";
  t.examples = {{"fountain_kernel_original", "Example: the fountain kernel as document 004 writes it.",
                 "fountain_kernel_original.cu"}};
  return t;
}

const TemplateRegistrar reg(spec());

}  // namespace
}  // namespace cv::usercode
