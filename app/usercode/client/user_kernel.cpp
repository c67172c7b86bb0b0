#include "usercode/client/user_kernel.h"

#include <chrono>
#include <stdexcept>

#include "usercode/client/runner_client.h"

namespace cv::usercode {
namespace {

double now_ms() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

const char* to_string(UserKernelState s) {
  switch (s) {
    case UserKernelState::Off: return "off";
    case UserKernelState::Compiling: return "compiling";
    case UserKernelState::CompileFailed: return "compile failed";
    case UserKernelState::Ready: return "ready";
    case UserKernelState::Faulted: return "faulted";
    case UserKernelState::CannotRun: return "cannot run";
  }
  return "?";
}

UserKernel::UserKernel(UserKernelOptions opts) : opts_(std::move(opts)) {
  set_time_limit(opts_.time_limit_s);
}

UserKernel::~UserKernel() = default;

void UserKernel::set_time_limit(double seconds) {
  if (!(seconds >= 0.05 && seconds <= 60))
    throw std::invalid_argument("time limit " + std::to_string(seconds) +
                                " s is outside 0.05..60 s");
  opts_.time_limit_s = seconds;
}

void UserKernel::set_checked(bool checked) { opts_.checked = checked; }
void UserKernel::set_guard(bool guard) { opts_.guard = guard; }

void UserKernel::submit(std::string source, std::string template_name, std::string file_name) {
  status_.source = source;
  status_.file_name = file_name;
  status_.requested_template = template_name;
  CompileRequest req;
  // The CPU backend builds per-particle files with the host compiler; every
  // other kind still compiles for the GPU there, to show errors and PTX.
  const std::string name =
      !template_name.empty() ? template_name : template_from_source(source).value_or("");
  const TemplateSpec* t = find_template(name);
  req.target = opts_.backend == Backend::Cpu && t && runs_on_cpu(*t) ? Target::Cpu : Target::Gpu;
  req.source = std::move(source);
  req.template_name = std::move(template_name);
  req.file_name = std::move(file_name);
  req.arch = opts_.arch;
  req.checked = opts_.checked;
  req.guard = opts_.guard;
  req.paths = opts_.paths;
  job_.start(std::move(req));
  submitted_at_ = now_ms();
  first_launch_pending_ = false;
  status_.state = UserKernelState::Compiling;
  status_.headline = "compiling...";
  status_.fault.reset();
  bump();
}

void UserKernel::stop() {
  status_.state = UserKernelState::Off;
  status_.headline = "off: the built-in kernels run";
  status_.fallback.clear();
  first_launch_pending_ = false;
  if (runner_) runner_->stop();
  bump();
}

void UserKernel::poll() {
  std::optional<CompileResult> r = job_.take();
  if (!r) return;
  if (job_.busy()) return;  // a newer edit is compiling; this result is stale
  status_.compile = *r;
  status_.template_name = r->template_name;
  status_.spec = r->spec;
  status_.resources = r->resources;
  set_headline_from_compile(*r);
  if (r->ok) {
    if (opts_.backend == Backend::Cpu && r->target == Target::Gpu) {
      status_.state = UserKernelState::CannotRun;
      status_.headline = "compiled for " + r->arch + " in " + std::to_string(static_cast<int>(r->compile_ms)) + " ms";
      status_.fallback = "running the built-in kernel because a " + r->template_name +
                         " kernel needs a CUDA GPU to run (this machine has none); its errors, "
                         "warnings and PTX still show here";
    } else {
      load(std::move(*r));
    }
  }
  bump();
}

void UserKernel::set_headline_from_compile(const CompileResult& r) {
  int errors = 0, warnings = 0;
  for (const Diagnostic& d : r.diagnostics) (d.severity == Severity::Error ? errors : warnings) += d.severity != Severity::Note;
  if (r.ok) {
    status_.headline = "compiled in " + std::to_string(static_cast<int>(r.compile_ms + 0.5)) + " ms" +
                       (warnings ? " (" + std::to_string(warnings) + " warnings)" : "");
    return;
  }
  status_.state = UserKernelState::CompileFailed;
  if (errors) {
    status_.headline = std::to_string(errors) + (errors == 1 ? " error" : " errors") +
                       (r.first_error_line() ? " (first at line " + std::to_string(r.first_error_line()) + ")" : "");
  } else {
    status_.headline = r.error;
  }
  status_.fallback = "running the built-in kernel because yours does not compile yet";
}

std::shared_ptr<RunnerClient> UserKernel::shared_runner() {
  std::string why;
  return make_runner(why) ? runner_ : nullptr;
}

bool UserKernel::make_runner(std::string& why) {
  if (runner_) return true;
  const std::string path = opts_.runner_path.empty() ? find_runner(opts_.paths.runner, &why) : opts_.runner_path;
  if (path.empty()) return false;
  runner_ = std::make_shared<RunnerClient>(path, opts_.backend);
  return true;
}

void UserKernel::load(CompileResult r) {
  if (std::string why; !make_runner(why)) {
    status_.state = UserKernelState::CannotRun;
    status_.fallback = "running the built-in kernel because " + why;
    return;
  }
  const LoadOutcome lo = runner_->load(r, opts_.time_limit_s);
  if (!lo.ok) {
    status_.state = UserKernelState::CannotRun;
    status_.fallback = "running the built-in kernel because your kernel could not be loaded: " + lo.error;
    return;
  }
  status_.resources = lo.resources;
  status_.state = UserKernelState::Ready;
  status_.fallback.clear();
  status_.headline += "; loaded, runs at the next step";
  first_launch_pending_ = true;
}

bool UserKernel::feeds(std::string_view feeds_name) const {
  return status_.state == UserKernelState::Ready && status_.spec && status_.spec->feeds_name == feeds_name &&
         runner_;
}

LaunchOutcome UserKernel::launch(const Workload& w, bool wait) {
  LaunchOutcome out;
  if (!status_.spec || !runner_) {
    KernelFault f;
    f.error_name = "runner";
    f.explanation = "no kernel is loaded";
    out.fault = f;
    return out;
  }
  LaunchRequest req;
  try {
    req = make_launch(*status_.spec, w, "editor");
  } catch (const std::invalid_argument& e) {
    KernelFault f;
    f.error_name = "runner";
    f.explanation = e.what();
    out.fault = f;
    record_fault(f);
    return out;
  }
  out = wait ? runner_->launch(req, opts_.time_limit_s) : runner_->try_launch(req, opts_.time_limit_s);
  if (out.busy) return out;
  if (!out.ok) {
    if (out.fault) record_fault(*out.fault);
    return out;
  }
  record_launch(out.kernel_ms.empty() ? 0 : out.kernel_ms.back());
  return out;
}

void UserKernel::record_launch(double kernel_ms) {
  status_.kernel_ms = kernel_ms;
  if (first_launch_pending_) {
    status_.edit_to_run_ms = now_ms() - submitted_at_;
    first_launch_pending_ = false;
    status_.headline = "your kernel runs (edit to running: " +
                       std::to_string(static_cast<int>(status_.edit_to_run_ms + 0.5)) + " ms)";
    bump();
  }
}

void UserKernel::record_fault(KernelFault fault) {
  status_.state = UserKernelState::Faulted;
  status_.headline = "your kernel failed: " + fault.error_name;
  status_.fallback = "running the built-in kernel because yours failed (" + fault.error_name +
                     "); fix it and compile again";
  status_.fault = std::move(fault);
  first_launch_pending_ = false;
  bump();
}

}  // namespace cv::usercode
