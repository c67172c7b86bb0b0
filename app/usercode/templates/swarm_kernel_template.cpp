// The swarm's step as a whole __global__ kernel.
#include "usercode/templates/template_registry.h"
#include "usercode/templates/swarm_parts.h"

namespace cv::usercode {
namespace {

TemplateSpec spec() {
  TemplateSpec t;
  t.name = "swarm_kernel";
  t.description = "The swarm's step as a whole __global__ kernel: indexing and launch shape are yours.";
  t.file = "swarm_kernel.cu";
  t.order = 30;
  swarm_template::fill(t);
  t.notes = swarm_template::math_prelude() +
            "// The app launches it every step as a 2D grid of 2D blocks: grid =\n"
            "// ceil(g.width / block.x) x ceil(g.height / block.y); particle i = y * g.width + x\n"
            "// exists when x < g.width and i < g.count. in[i] is the last frame's (x, y, z,\n"
            "// age01), out[i] the next (write every particle); state[i] is (vx, vy, vz, age in\n"
            "// steps), read and written in place.";
  return t;
}

const TemplateRegistrar reg(spec());

}  // namespace
}  // namespace cv::usercode
