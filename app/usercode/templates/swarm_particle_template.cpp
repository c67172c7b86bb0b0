// One swarm particle's step (CV_HD): the GPU wraps it in a kernel, the CPU in a loop.
#include "swarm/swarm.h"
#include "usercode/templates/template_registry.h"
#include "usercode/templates/swarm_parts.h"
#include "usercode_prelude.h"

namespace cv::usercode {
namespace {

TemplateSpec spec() {
  TemplateSpec t;
  t.name = "swarm_particle";
  t.description =
      "One swarm particle's step (CV_HD), like kernels/swarm/swarm_math.h: runs on the GPU and on the CPU.";
  t.file = "swarm_particle.cu";
  t.order = 40;
  swarm_template::fill(t);
  t.student_function = "particle_step";
  t.notes = swarm_template::math_prelude() +
            "// The app calls it once per particle per step (on the GPU in a kernel, on the\n"
            "// CPU in a loop), with the particle's index and this step's random key\n"
            "// (cv::swarm::respawn draws from them); then writes s back.";
  t.declaration =
      "CV_HD void particle_step(cv::swarm::Particle& s, const float3& target, uint32_t key,\n"
      "                         uint32_t index, cv::swarm::Variant v, const cv::swarm::Params& p);";
  t.gpu_epilogue = prelude::swarm_particle_gpu_h;
  t.cpu_epilogue = prelude::swarm_particle_cpu_h;
  t.cpu_form = CpuForm::Items;
  t.cpu_entry = "cv_swarm_range";
  t.cpu_items = [](const Workload& w) { return static_cast<unsigned long long>(w.n); };
  return t;
}

const TemplateRegistrar reg(spec());

}  // namespace
}  // namespace cv::usercode
