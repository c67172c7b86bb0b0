// The n-body scene's force kernel: every body's acceleration from all bodies
// (the app integrates), checked against the CPU twin's accelerations.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "nbody/nbody.h"
#include "usercode/templates/template_registry.h"
#include "usercode/templates/nbody_parts.h"

namespace cv::usercode {
namespace {

TemplateSpec spec() {
  TemplateSpec t;
  t.name = "nbody_kernel";
  t.description =
      "The n-body scene's force kernel: each body's acceleration from all bodies; the app integrates.";
  t.file = "nbody_kernel.cu";
  t.order = 50;
  nbody_template::fill(t);
  t.examples = {
      {"nbody_allpairs", "Example: document 004's all-pairs kernel, every body read from global memory.",
       "nbody_allpairs.cu"},
      {"nbody_tiled",
       "Example: the tiled shared-memory kernel of GPU Gems 3 (ch. 31), the built-in tiled variant's scheme.",
       "nbody_tiled.cu"},
  };
  return t;
}

const TemplateRegistrar reg(spec());

}  // namespace
}  // namespace cv::usercode
