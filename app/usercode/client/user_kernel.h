#pragma once
// "Your kernel": the one object the app holds for a student's
// kernel. It compiles off the UI thread (CompileJob), loads the result into
// the runner process (runner_client.h) and reports, in words a student
// understands, what happened: compile errors at their lines, what the kernel
// costs, a fault or time-out and that the built-in kernel runs instead.
//
// The editor calls submit() and reads status(); a scene asks feeds("fountain")
// and runs it with launch(); the labs' "run your kernel" and bench kernel use
// runner() (the same process, a module of their own). A fault never
// reaches the app: the runner process dies instead, is reaped, and is
// restarted lazily on the next submit().
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/block_shape.h"
#include "common/device_info.h"
#include "usercode/client/judge_job.h"
#include "usercode/client/kernel_fault.h"
#include "usercode/client/runner_prestart.h"
#include "usercode/client/verdict.h"
#include "usercode/compile/compile.h"
#include "usercode/templates/template_registry.h"

namespace cv::usercode {

class RunnerClient;
struct LoadOutcome;
struct LaunchOutcome;

enum class UserKernelState {
  Off,            // nothing submitted (or stopped): built-in kernels run
  Compiling,      // a compile runs on the worker
  CompileFailed,  // diagnostics in status().compile
  Ready,          // compiled and loaded into the runner; runs where it fits
  Faulted,        // the last run faulted or timed out: built-in runs until the next submit
  CannotRun,      // compiled, but cannot run here (whole kernel without a GPU, no runner)
};
const char* to_string(UserKernelState s);

struct UserKernelOptions {
  Backend backend = Backend::Cpu;  // where kernels run: Cuda (NVRTC cubin) or Cpu (host C++)
  double time_limit_s = 2.0;       // a launch running longer ends the runner
  bool checked = false;            // compile with bounds-checked accessors
  bool guard = true;               // every memory access checked before it runs (docs/guard.md)
  std::string arch;                // NVRTC arch override ("" -> the device's)
  std::string runner_path;         // "" -> find_runner(paths.runner)
  PathConfig paths;                // PATH, CXX, TMPDIR, CUDAVIZ_RUNNER (config/config.h)
};

struct UserKernelStatus {
  UserKernelState state = UserKernelState::Off;
  std::string template_name;
  const TemplateSpec* spec = nullptr;    // the compiled file's template (template_registry.h)
  std::string headline;  // one line: "your kernel runs", "2 errors (first at line 12)", ...
  std::string fallback;  // "running the built-in kernel because ..."; "" when yours runs
  std::optional<CompileResult> compile;  // the last finished compile (diagnostics, PTX, time)
  std::optional<KernelFault> fault;      // the last fault, until the next submit
  KernelResources resources;             // cuFuncGetAttribute values once loaded (else ptxas')
  double kernel_ms = 0;                  // the last launch's time (CUDA events / host clock)
  double edit_to_run_ms = 0;             // submit -> first launch finished (compile + load + run)
  double first_edit_to_run_ms = 0;       // the same for this app's first kernel that ran
  // Where an edit-to-running went: the compile (NVRTC, the guard; the host
  // compiler on the CPU), the wait until the UI thread took its result (the
  // compile job's hand-over and the frame), the runner's load (the driver's
  // JIT of guarded PTX) and the first launch (from the load until it finished).
  struct EditPhases {
    double compile_ms = 0, wait_ms = 0, load_ms = 0, launch_ms = 0;
    double jit_ms = 0, cap_ms = 0;  // of load_ms: the runner's JIT, the register cap's (LoadOutcome)
    double jit_thread_cpu_ms = 0, jit_process_cpu_ms = 0;  // the JIT's CPU time: its thread's, the runner's
  };
  EditPhases edit_phases, first_edit_phases;
  uint64_t version = 0;                  // changes whenever anything above does
  std::string source, file_name;         // the last submitted (presets embed them)
  std::string requested_template;        // as submitted ("" -> the file's first line)
  // The verdict on the template's test set (usercode/client/verdict.h), judged once
  // the kernel runs; "judging: 3 of 10 cases" meanwhile.
  std::optional<Verdict> verdict;
  std::string judging;
};

class UserKernel {
 public:
  explicit UserKernel(UserKernelOptions opts);
  ~UserKernel();
  UserKernel(const UserKernel&) = delete;
  UserKernel& operator=(const UserKernel&) = delete;

  // Compiles `source` (template from `template_name`, else its first line)
  // off the UI thread; when it compiles it is loaded into the runner.
  void submit(std::string source, std::string template_name = {},
              std::string file_name = "kernel.cu");
  // UI thread, once a frame: collects a finished compile and loads it.
  void poll();
  // Back to the built-in kernels (keeps the last compile's diagnostics).
  void stop();

  const UserKernelStatus& status() const { return status_; }
  const UserKernelOptions& options() const { return opts_; }
  void set_time_limit(double seconds);  // throws std::invalid_argument outside [0.05, 60]
  void set_checked(bool checked);       // takes effect at the next submit
  void set_guard(bool guard);           // takes effect at the next submit

  // True when a loaded kernel feeds `feeds_name` (a scene or a lab, as its
  // template says) and should run instead of the built-in.
  bool feeds(std::string_view feeds_name) const;
  // Runs the loaded kernel once on `w` by its template's rules (the feeder's
  // buffers and scalars in `w`) and records the time or the fault (then the
  // built-in runs). `wait` false (the UI thread): when another request holds
  // the runner (a lab run), returns at once with busy set and records nothing.
  LaunchOutcome launch(const Workload& w, bool wait = true);
  // The process the kernels run in (protocol, launches); nullptr before the
  // first successful load.
  RunnerClient* runner() { return runner_.get(); }
  // The runner's module the loaded kernel is (launches, occupancy): each
  // compile loads into the other of two names while the last one still runs.
  const std::string& module() const { return module_; }
  // The same process for others (the labs' "run your kernel"), made now when
  // needed (its process starts with its first request); nullptr when no
  // cudaviz-runner exists.
  std::shared_ptr<RunnerClient> shared_runner();
  // Starts the runner process (its CUDA context; on the GPU backend NVRTC's
  // load too) now, on a background thread, so the first submit does not wait
  // for them: the kernel tab, a lab's "run your kernel" and --kernel call it
  // when they first need the runner. At most once; nothing when no runner exists.
  // `warm_source`: what the student is about to compile (the tab's text, or the
  // shipped kernel of --kernel's template), compiled once on that thread and
  // thrown away: the compiler's code paths that source takes (its template's
  // prelude, math library, unrolled loops) are paged in and set up before the
  // first Ctrl+Enter. Empty: a small kernel of the count3 template.
  void prestart(const std::string& warm_source = {});
  // Waits for prestart() to finish (the runner's start limit bounds it).
  void wait_prestarted() { prestart_.wait(); }
  // How long the prestart took once it finished (ms); why it failed ("" if not).
  std::optional<double> prestart_ms() const { return prestart_.start_ms(); }
  std::string prestart_error() const { return prestart_.error(); }

  // Called by the runner paths (scene / lab hooks) after a launch: records the
  // time or the fault and switches to the built-in on a fault.
  void record_launch(double kernel_ms);
  void record_fault(KernelFault fault);

 private:
  void load(CompileResult result);
  void adopt(const LoadOutcome& lo);  // the load of the last compile: it runs from the next step
  bool make_runner(std::string& why);  // the client (not yet the process); false: no runner
  void set_headline_from_compile(const CompileResult& r);
  void bump() { ++status_.version; }

  void start_judge();
  void poll_judge();

  UserKernelOptions opts_;
  UserKernelStatus status_;
  std::string module_, staging_;  // none loaded yet: the first compile loads as "editor"
  // On the GPU the compile's own thread loads its result into the runner (the
  // driver's JIT of guarded PTX, 60-120 ms) instead of the UI thread at its next frame.
  std::shared_ptr<std::optional<LoadOutcome>> preload_;
  CompileJob job_;
  std::shared_ptr<RunnerClient> runner_;
  RunnerPrestart prestart_;  // after runner_: its thread is joined first
  JudgeJob judge_;           // after runner_: destroyed (joined) first
  double submitted_at_ = 0;  // steady clock, ms
  double loaded_at_ = 0;     // steady clock, ms
  bool first_launch_pending_ = false;
  bool judge_due_ = false;   // loaded, not judged yet
};

}  // namespace cv::usercode
