#pragma once
// The shipped starting points of "Your kernel" (assets/kernels/*.cu): which
// demo each fits, what the student writes (a whole __global__ kernel, a
// per-particle function, a lab kernel), and the examples from the reference
// documents. A kernel file names its template on its first line:
//   // template: fountain_kernel
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.h"

namespace cv::usercode {

// What the student's file must define; the prelude and the runner follow it.
enum class TemplateKind {
  FountainKernel,    // extern "C" __global__ void fountain_step(...) over the particle buffer
  FountainParticle,  // CV_HD void particle_step(...): one particle; runs on GPU and CPU
  Count3,            // extern "C" __global__ void count3(...) over the lab's int32 data
  Pi,                // extern "C" __global__ void pi_samples(...): hits inside the quarter circle
};
const char* to_string(TemplateKind k);

struct TemplateInfo {
  std::string name;         // "fountain_kernel", the `// template: NAME` value
  TemplateKind kind;
  std::string description;  // one sentence for the editor's list
  std::string file;         // file name under assets/kernels/ ("fountain_kernel.cu")
  bool example = false;     // a reference document's version (seed fountain, racy count, ...)
};

// Every template and example, templates first, in a stable order.
const std::vector<TemplateInfo>& templates();
// By template name (or example file stem); nullptr when unknown.
const TemplateInfo* find_template(std::string_view name);
// The names, comma separated, for messages ("fountain_kernel, fountain_particle, ...").
std::string template_names();
// The value of a `// template: NAME` first line (leading whitespace allowed), else nullopt.
std::optional<std::string> template_from_source(std::string_view source);

// Where the shipped kernel files are: paths.kernel_dir ($CUDAVIZ_KERNEL_DIR), else
// kernels/ of the shipped data's folder (io/data_dir.h); "" when there is none.
std::string kernel_dir(const PathConfig& paths);
// The shipped source of a template or example; throws std::runtime_error naming
// the path when it cannot be read.
std::string read_template_source(const TemplateInfo& t, const PathConfig& paths);

// Whether the template's kernel can run on the CPU backend (through the host
// C++ compiler); whole kernels need a CUDA GPU to run (they still compile).
bool runs_on_cpu(TemplateKind k);

}  // namespace cv::usercode
