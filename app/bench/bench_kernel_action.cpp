// "run your kernel" (bench/kernel_action.h): the checks and the jobs.
#include "bench/kernel_action.h"

#include <algorithm>

namespace cv::bench {
namespace {

// "count3" or "count3 or count3_warp": the templates that feed `lab`.
std::string feeding(const std::string& lab) {
  std::string s;
  for (const usercode::TemplateSpec* t : usercode::templates_feeding(lab)) s += (s.empty() ? "" : " or ") + t->name;
  return s.empty() ? "no template" : s;
}

}  // namespace

std::optional<std::string> your_kernel_unavailable(const std::string& lab, const BenchOptions& fields,
                                                   Backend backend) {
  const std::string want = feeding(lab);
  if (!fields.source_text || fields.source_text->find_first_not_of(" \t\r\n") == std::string::npos)
    return "The kernel tab holds no kernel: start one there from the " + want + " template.";
  const std::optional<std::string> name = usercode::template_from_source(*fields.source_text);
  if (!name)
    return "The kernel tab's text does not name its template on its first line (// template: " +
           want + ").";
  const usercode::TemplateSpec* t = usercode::find_template(*name);
  if (!t) return "The kernel tab's template '" + *name + "' is unknown (one of " + usercode::template_names() + ").";
  if (t->feeds_name != lab)
    return "The kernel tab holds a " + t->name + " kernel; this lab runs " + want +
           " kernels (start one from the " + want + " template).";
  if (backend != Backend::Cuda && !usercode::runs_on_cpu(*t))
    return "Your " + t->name + " kernel is a whole CUDA kernel: it needs a CUDA GPU to run, so it "
           "cannot run on the CPU backend (it still compiles and shows its errors in the kernel tab).";
  if (fields.input)
    return "Your kernel runs on the lab's generated data, not on a data file: clear the input "
           "field to run it.";
  return std::nullopt;
}

LabAction your_kernel_action(const std::string& lab, long long default_n) {
  LabAction a;
  a.name = kYourKernelAction;
  a.tooltip =
      "Runs the kernel in the kernel tab on this lab's data (its n and block) beside the "
      "built-in variants: its answer checked against the CPU reference, its time and how the "
      "built-in variants compare (vs). Bounds-checked, as in the window.";
  a.unavailable = [lab](const BenchOptions& f, Backend b) { return your_kernel_unavailable(lab, f, b); };
  a.jobs = [default_n](const BenchOptions& fields, Backend backend) {
    BenchOptions lab_run = fields;  // the built-in variants, as "run" would
    lab_run.source_text.reset();
    lab_run.source.reset();
    lab_run.runner.reset();
    BenchOptions yours = fields;  // runs in fields.runner: the app's runner process
    yours.target = "kernel";
    yours.variant = "yours";
    // The lab's default n is the GPU's; on the CPU backend a whole kernel runs
    // in the emulator at its own default (TemplateSpec::emulated_default_n).
    yours.n = fields.n.value_or(default_n);
    if (!fields.n && backend == Backend::Cpu && fields.source_text)
      if (const std::optional<std::string> name = usercode::template_from_source(*fields.source_text))
        if (const usercode::TemplateSpec* t = usercode::find_template(*name); t && usercode::emulated_on(*t, backend))
          yours.n = std::min(default_n, t->emulated_default_n);
    yours.input.reset();
    yours.template_name.reset();  // the text's first line names it
    yours.source = fields.source.value_or("kernel.cu");
    // Checked, as the window compiles it: an index past a buffer is reported
    // instead of faulting the GPU (a fault can stop GL: docs/kernels.md).
    yours.checked = true;
    return std::vector<BenchOptions>{lab_run, yours};
  };
  return a;
}

}  // namespace cv::bench
