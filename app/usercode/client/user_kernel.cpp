#include "usercode/client/user_kernel.h"

#include <algorithm>
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

// A kernel no scene launches this soon after loading (a lab's, or a scene's
// not on screen) is judged anyway.
constexpr double kJudgeUnlaunchedMs = 300;

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
  req.build = opts_.backend == Backend::Cpu && t && runs_on_cpu(*t) ? BuildKind::Cpu : BuildKind::Gpu;
  req.source = std::move(source);
  req.template_name = std::move(template_name);
  req.file_name = std::move(file_name);
  req.arch = opts_.arch;
  req.checked = opts_.checked;
  req.guard = opts_.guard;
  req.paths = opts_.paths;
  staging_ = module_ == "editor" ? "editor-b" : "editor";
  if (runner_) runner_->build_verdict_ahead(staging_, req);  // the CPU's verdict build, beside this compile
  preload_.reset();
  CompileJob::Then then;
  if (std::string why; req.build == BuildKind::Gpu && opts_.backend == Backend::Cuda && make_runner(why)) {
    preload_ = std::make_shared<std::optional<LoadOutcome>>();
    then = [runner = runner_, limit = opts_.time_limit_s, module = staging_, slot = preload_](const CompileResult& r) {
      if (r.ok) *slot = runner->load(r, limit, module);
    };
  }
  job_.start(std::move(req), std::move(then));
  submitted_at_ = now_ms();
  first_launch_pending_ = false;
  judge_due_ = false;
  judge_.cancel();
  status_.verdict.reset();
  status_.judging.clear();
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
  judge_due_ = false;
  judge_.cancel();
  status_.judging.clear();
  if (runner_) runner_->stop();
  bump();
}

void UserKernel::poll() {
  poll_judge();
  std::optional<CompileResult> r = job_.take();
  if (!r) return;
  if (job_.busy()) return;  // a newer edit is compiling; this result is stale
  // On the GPU the compile's thread has loaded it already: the wait is what came after.
  const LoadOutcome* preloaded = preload_ && *preload_ ? &**preload_ : nullptr;
  const double loaded_ms = preloaded ? preloaded->load_ms : 0;
  status_.edit_phases = {};
  status_.edit_phases.compile_ms = r->compile_ms;
  status_.edit_phases.wait_ms = std::max(0.0, now_ms() - submitted_at_ - r->compile_ms - loaded_ms);
  status_.compile = *r;
  status_.template_name = r->template_name;
  status_.spec = r->spec;
  status_.resources = r->resources;
  set_headline_from_compile(*r);
  if (r->ok) {
    if (opts_.backend == Backend::Cpu && r->build == BuildKind::Gpu) {
      status_.state = UserKernelState::CannotRun;
      status_.headline = "compiled for " + r->arch + " in " + std::to_string(static_cast<int>(r->compile_ms)) + " ms";
      status_.fallback = "running the built-in kernel because a " + r->template_name +
                         " kernel needs a CUDA GPU to run (this machine has none); its errors, "
                         "warnings and PTX still show here";
    } else if (preloaded) {
      adopt(*preloaded);
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

void UserKernel::prestart(const std::string& warm_source) {
  if (prestart_.begun()) return;
  std::string why;
  if (!make_runner(why)) return;
  std::function<void()> warm;
  if (opts_.backend == Backend::Cuda) {
    // A throwaway compile through the same path (NVRTC, the guard, nvJitLink):
    // the first compile in a process pays their set-up, 100-300 ms on an H100,
    // and more for code paths the first source did not take.
    CompileRequest req;
    req.source = !warm_source.empty()
                     ? warm_source
                     : "// template: count3\n"
                       "extern \"C\" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {}\n";
    req.arch = opts_.arch;
    req.checked = opts_.checked;
    req.guard = opts_.guard;
    req.paths = opts_.paths;
    // Loaded too, as a module of its own: the runner's driver JIT compiles a
    // guarded kernel (guard_compile.cpp), and its first compile in a process
    // costs about 100 ms more than the rest.
    warm = [req, runner = runner_, limit = opts_.time_limit_s] {
      const CompileResult c = compile(req);
      if (c.ok) (void)runner->load(c, limit, "warm-up");
    };
  }
  prestart_.begin(runner_, opts_.backend, std::move(warm));
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
  adopt(runner_->load(r, opts_.time_limit_s, staging_));
}

void UserKernel::adopt(const LoadOutcome& lo) {
  if (!lo.ok) {
    status_.state = UserKernelState::CannotRun;
    status_.fallback = "running the built-in kernel because your kernel could not be loaded: " + lo.error;
    return;
  }
  status_.resources = lo.resources;
  status_.edit_phases.load_ms = lo.load_ms;
  status_.edit_phases.jit_ms = lo.jit_ms;
  status_.edit_phases.cap_ms = lo.cap_ms;
  status_.edit_phases.jit_thread_cpu_ms = lo.jit_thread_cpu_ms;
  status_.edit_phases.jit_process_cpu_ms = lo.jit_process_cpu_ms;
  module_ = staging_;
  status_.state = UserKernelState::Ready;
  status_.fallback.clear();
  status_.headline += "; loaded, runs at the next step";
  first_launch_pending_ = true;
  judge_due_ = true;
  loaded_at_ = now_ms();
  status_.judging = "judged once it runs";
}

void UserKernel::start_judge() {
  judge_due_ = false;
  status_.judging.clear();
  if (!status_.spec || !runner_ || !status_.spec->check) return;
  // A GPU may not show a race: the source is checked on the emulator too.
  std::optional<JudgeJob::Races> races;
  if (opts_.backend == Backend::Cuda) races = JudgeJob::Races{status_.source, opts_.paths};
  judge_.start(*status_.spec, runner_, module_, opts_.time_limit_s, std::move(races));
  status_.judging = judge_.progress();
  bump();
}

void UserKernel::poll_judge() {
  judge_.poll();
  if (judge_due_ && status_.state == UserKernelState::Ready && now_ms() - loaded_at_ > kJudgeUnlaunchedMs)
    start_judge();
  if (std::optional<Verdict> v = judge_.take()) {
    status_.verdict = std::move(v);
    status_.judging.clear();
    bump();
    return;
  }
  if (std::string p = judge_.progress(); !judge_due_ && p != status_.judging) {
    status_.judging = std::move(p);
    bump();
  }
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
    req = make_launch(*status_.spec, w, module_);
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
    status_.edit_phases.launch_ms = now_ms() - loaded_at_;
    if (status_.first_edit_to_run_ms == 0) {
      status_.first_edit_to_run_ms = status_.edit_to_run_ms;
      status_.first_edit_phases = status_.edit_phases;
    }
    first_launch_pending_ = false;
    status_.headline = "your kernel runs (edit to running: " +
                       std::to_string(static_cast<int>(status_.edit_to_run_ms + 0.5)) + " ms)";
    bump();
    // Running now: the verdict follows, so it adds nothing to edit to running.
    if (judge_due_) start_judge();
  }
}

void UserKernel::record_fault(KernelFault fault) {
  status_.state = UserKernelState::Faulted;
  status_.headline = "your kernel failed: " + fault.error_name;
  status_.fallback = "running the built-in kernel because yours failed (" + fault.error_name +
                     "); fix it and compile again";
  status_.fault = std::move(fault);
  first_launch_pending_ = false;
  judge_due_ = false;  // its fault is the verdict already
  if (!judge_.busy()) status_.judging.clear();
  bump();
}

}  // namespace cv::usercode
