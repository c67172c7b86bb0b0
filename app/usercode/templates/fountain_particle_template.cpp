// One particle's step (CV_HD): the GPU wraps it in a kernel, the CPU in a loop.
#include "fountain/fountain_math.h"
#include "usercode/templates/template_registry.h"
#include "usercode/templates/fountain_parts.h"
#include "usercode_prelude.h"

namespace cv::usercode {
namespace {

TemplateSpec spec() {
  TemplateSpec t;
  t.name = "fountain_particle";
  t.description = "One particle's step (CV_HD), like the app's *_math.h: runs on the GPU and on the CPU.";
  t.file = "fountain_particle.cu";
  t.order = 20;
  fountain_template::fill(t);
  t.student_function = "particle_step";
  t.notes =
      "// The app calls it once per particle per step (on the GPU in a kernel, on\n"
      "// the CPU in a loop).";
  t.declaration =
      "CV_HD void particle_step(cv::Particle& s, float vx, float vz, const cv::Frame& f,\n"
      "                         const cv::Params& p);";
  t.gpu_epilogue = prelude::fountain_particle_gpu_h;
  t.cpu_epilogue = prelude::fountain_particle_cpu_h;
  t.cpu_form = CpuForm::Items;
  t.cpu_entry = "cv_fountain_rows";
  t.cpu_items = [](const Workload& w) {  // the rows of the particle grid
    return static_cast<unsigned long long>(fountain::make_grid(static_cast<unsigned>(w.n)).height);
  };
  return t;
}

const TemplateRegistrar reg(spec());

}  // namespace
}  // namespace cv::usercode
