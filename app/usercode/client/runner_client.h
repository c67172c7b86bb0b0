#pragma once
// The app's side of the runner process (cudaviz-runner, runner_main.cpp):
// student kernels run there, so an illegal address, a trap, a segfault in a
// CPU build or an endless loop ends that process, never the app. The child is
// spawned with a Unix socketpair (wire/protocol.h: length-prefixed JSON +
// binary frames, file descriptors passed with SCM_RIGHTS), killed (SIGKILL)
// and reaped on a time-out, a protocol error or destruction (process/
// helper_process.h), and started again lazily by the next request.
#include <cstdint>
#include <cstring>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/block_shape.h"
#include "common/device_info.h"
#include "process/helper_process.h"
#include "usercode/compile/compile.h"
#include "usercode/client/kernel_fault.h"
#include "usercode/wire/launch_request.h"
#include "usercode/wire/protocol.h"
#include "usercode/wire/progress_page.h"

namespace cv::usercode {

// The runner executable: `override_path` ($CUDAVIZ_RUNNER: PathConfig::runner),
// else cudaviz-runner beside the running binary, else the build tree's
// (CUDAVIZ_RUNNER_PATH). "" when none exists (`why` says where it looked).
std::string find_runner(const std::string& override_path, std::string* why = nullptr);

// The runner's process and its socket (`--backend cuda|cpu --device N`);
// SIGKILL + waitpid on destruction. kill_and_reap() says how it ended
// ("SIGSEGV", "exit 1", "killed"), the words fault_words.h explains.
class RunnerProcess : public HelperProcess {
 public:
  // `device`: the CUDA device it computes on (-1: the app's selected one);
  // `quiet`: its stdout on /dev/null (a kernel's printf reaches no terminal).
  RunnerProcess(const std::string& path, Backend backend, int device = -1,
                bool quiet = false);  // throws std::runtime_error
};

struct LaunchOutcome {
  bool ok = false;
  bool busy = false;                   // try_launch: another thread's request was running
  std::vector<double> kernel_ms;       // per launch (CUDA events / steady clock)
  std::optional<KernelFault> fault;    // when !ok and !busy
  ReadBack read_back;                  // the spans marked read_back, by name
  nlohmann::json reply;                // the runner's whole reply (for bench)
  // A read-back span as `count` values of T ({} when it is missing or short).
  template <class T>
  std::vector<T> values(const std::string& name) const {
    auto it = read_back.find(name);
    if (it == read_back.end()) return {};
    std::vector<T> v(it->second.size() / sizeof(T));
    if (!v.empty()) std::memcpy(v.data(), it->second.data(), v.size() * sizeof(T));
    return v;
  }
};

struct LoadOutcome {
  bool ok = false;
  std::string error;            // why not, in words
  KernelResources resources;    // cuFuncGetAttribute (GPU) / ptxas' (CPU: none)
  double load_ms = 0;
  // CPU backend: what confines the module's process (sandbox/cell.h), in
  // words, and whether its seccomp policy is in force. "" on the GPU.
  std::string sandbox;
  bool seccomp = false;
  // The guard's register cap (runner/register_cap.h), when the runner weighed
  // one: the unguarded kernel's registers, the guarded kernel's before the cap,
  // and the cap it was compiled with (0: none). All 0 when not weighed.
  int raw_registers = 0, uncapped_registers = 0, register_cap = 0;
  // Of load_ms, the runner's JIT of the image (GPU, PTX) and the cap's work
  // after it (the unguarded JIT beside the capped one), ms; 0 when none.
  double jit_ms = 0, cap_ms = 0;
  // The JIT's CPU time: its thread's, and the whole runner's meanwhile (ms).
  double jit_thread_cpu_ms = 0, jit_process_cpu_ms = 0;
};

// Occupancy of the loaded kernel for a block (cuOccupancyMaxActiveBlocksPerMultiprocessor).
struct OccupancyReply {
  bool ok = false;
  std::string error;      // e.g. the block cannot launch: the reason
  int blocks_per_sm = 0;
  int warps_per_sm = 0, max_warps_per_sm = 0;
  std::string limiter;    // "registers", "shared memory", "threads", "blocks"
  bool busy = false;      // another request held the runner: ask again later
};

// One runner per app: the scene's steps (UI thread), the labs' "run your
// kernel" and bench kernel (worker threads) share it; requests take turns.
// Kernels are loaded under a module name ("editor": the kernel tab's, "lab":
// a lab run's), so a lab run does not replace the kernel a scene runs.
class RunnerClient {
 public:
  // `device`: the CUDA device its processes compute on (-1: the app's
  // selected one; a challenge's judge keeps one runner per GPU). `quiet`:
  // the processes' stdout on /dev/null (the judge's: a class's kernels may
  // printf megabytes, which must not reach the teacher's terminal).
  RunnerClient(std::string runner_path, Backend backend, int device = -1, bool quiet = false);
  ~RunnerClient();
  RunnerClient(const RunnerClient&) = delete;
  RunnerClient& operator=(const RunnerClient&) = delete;

  Backend backend() const { return backend_; }
  bool running() const;
  // The runner process' id, 0 when none runs (tests: the same process served the first run).
  long pid() const;
  // What the runner said about itself (device, backend), {} before it started.
  nlohmann::json hello() const;

  // Starts the process now (else the first load() does): the CUDA context's
  // creation then leaves the edit-to-running path. Throws std::runtime_error.
  void start();
  // Whether this runner has mapped shared buffer `id` (then no fd need travel).
  bool has_shared(uint64_t id) const;
  // Sends the compiled kernel (cubin / shared object) as `module`. Starts the
  // runner when needed. A runner restarted later gets it again before its next launch.
  LoadOutcome load(const CompileResult& compiled, double time_limit_s,
                   const std::string& module = "editor");
  // Runs request.module's kernel (shared buffers not yet mapped travel first).
  // On the CPU backend a launch still finishing blocks when time_limit_s is
  // up may go on, while it keeps finishing blocks, up to ceiling_s; past it
  // the fault is "slow" (with its progress), not an endless loop's time-out.
  LaunchOutcome launch(const LaunchRequest& request, double time_limit_s, double ceiling_s = 0);
  // The same, unless another request is running: then at once with busy set (the UI thread).
  LaunchOutcome try_launch(const LaunchRequest& request, double time_limit_s);
  // Without waiting: busy (and not ok) while another request holds the runner.
  OccupancyReply occupancy(const BlockShape& block, double time_limit_s,
                           const std::string& module = "editor");
  // Ends the runner (SIGKILL, reap); the next load() or launch() starts a new one.
  void stop();
  // The CPU backend's verdict build of a whole kernel (docs/emulator.md, "Races
  // on the CPU") started now, on a thread of its own, for the kernel `req`
  // compiles to and will be loaded as `module`: the verdict's first
  // race-exposing case then finds it made (or being made) instead of
  // compiling it then. Nothing on the GPU or for a per-item template.
  void build_verdict_ahead(const std::string& module, const CompileRequest& req);

 private:
  void ensure_started();
  void stop_locked();
  LoadOutcome load_locked(const CompileResult& c, double limit_s, const std::string& module);
  LaunchOutcome launch_locked(const LaunchRequest& request, double limit_s, double ceiling_s = 0);
  std::optional<KernelFault> verdict_module(LaunchRequest& r, double limit_s);
  // One request/reply; on a time-out, EOF or a fault the process is ended and
  // the fault described. `blob` travels after the JSON (cubin).
  std::optional<KernelFault> call(const nlohmann::json& request, const std::vector<char>& blob,
                                  const std::vector<int>& fds, double time_limit_s,
                                  nlohmann::json& reply, std::vector<char>& reply_blob,
                                  wire::Expect expect = {}, double ceiling_s = -1);
  // Waits for the reply while the emulator keeps finishing blocks (ceiling_s
  // >= 0: a CPU launch); a fault when it stops moving or passes the ceiling.
  std::optional<KernelFault> wait_moving(double limit_s, double ceiling_s);

  std::string path_;
  Backend backend_;
  int device_ = -1;
  bool quiet_ = false;
  mutable std::mutex mutex_;  // one request at a time; guards everything below
  std::unique_ptr<RunnerProcess> proc_;
  nlohmann::json hello_;
  mutable std::mutex ids_mutex_;                  // guards shared_ids_ alone (has_shared)
  std::vector<uint64_t> shared_ids_;              // buffers this runner has mapped
  std::map<std::string, CompileResult> modules_;  // loaded kernels, re-sent after a restart
  std::set<std::string> loaded_here_;             // modules this process has
  std::map<std::string, double> last_ms_;         // each module's last launch (ms): when to expect the reply
  std::unique_ptr<ProgressPage> progress_;        // CPU: where the emulator counts finished blocks
  // Verdict builds started ahead (build_verdict_ahead), by module: the request
  // they were made from (used only for the same kernel) and the build.
  struct VerdictAhead {
    CompileRequest request;
    std::shared_future<CompileResult> build;
  };
  std::mutex ahead_mutex_;  // guards ahead_ and retired_ alone (started from any thread)
  std::map<std::string, VerdictAhead> ahead_;
  // Builds replaced before they were used, kept until they finish: dropping
  // the last handle of a running std::async would wait for it (on the UI
  // thread, at a submit). Only the client's destructor waits for builds still
  // running (bounded by the compile's time limit).
  std::vector<std::shared_future<CompileResult>> retired_;
  void retire(std::shared_future<CompileResult> build);  // with ahead_mutex_ held
};

}  // namespace cv::usercode
