#pragma once
// The app's side of the runner process (cudaviz-runner, runner_main.cpp):
// student kernels run there, so an illegal address, a trap, a segfault in a
// CPU build or an endless loop ends that process, never the app. The child is
// spawned with a Unix socketpair (runner_protocol.h: length-prefixed JSON +
// binary frames, file descriptors passed with SCM_RIGHTS), killed (SIGKILL)
// and reaped on a time-out, a protocol error or destruction, and started
// again lazily by the next request.
#include <sys/types.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/block_shape.h"
#include "common/device_info.h"
#include "fountain/fountain_math.h"
#include "usercode/compile.h"
#include "usercode/user_kernel.h"

namespace cv::usercode {

// The runner executable: `override_path` ($CUDAVIZ_RUNNER: PathConfig::runner),
// else cudaviz-runner beside the running binary, else the build tree's
// (CUDAVIZ_RUNNER_PATH). "" when none exists (`why` says where it looked).
std::string find_runner(const std::string& override_path, std::string* why = nullptr);

// One child process and its socket; SIGKILL + waitpid on destruction.
class RunnerProcess {
 public:
  RunnerProcess(const std::string& path, Backend backend);  // throws std::runtime_error
  ~RunnerProcess();
  RunnerProcess(const RunnerProcess&) = delete;
  RunnerProcess& operator=(const RunnerProcess&) = delete;
  int socket() const { return sock_; }
  pid_t pid() const { return pid_; }
  // Kills and reaps; returns how it ended ("killed by SIGSEGV", "exit 1", ...).
  std::string kill_and_reap();
  // Non-blocking: how it ended if it already did, else "".
  std::string exited();

 private:
  pid_t pid_ = -1;
  int sock_ = -1;
  std::string ended_;
};

// Memory the app shares with the runner: CUDA VMM memory exported as a POSIX
// fd (the scene's vertex buffers) or a memfd of host memory (CPU backend).
struct SharedBuffer {
  enum class Kind { CudaVmm, HostMemfd } kind = Kind::HostMemfd;
  uint64_t id = 0;   // the app's name for it; the runner maps each id once
  int fd = -1;       // borrowed: sent with SCM_RIGHTS (the runner gets its own copy)
  size_t bytes = 0;  // the mapped size (VMM: the rounded allocation size)
};

// One step of the student's fountain (whole kernel or per-particle function).
// Positions are float4(x, y, z, age) (the lean layout), vy the runner's own
// state, initialised from fountain::initial_state(seed) when `reset`.
struct FountainRequest {
  unsigned count = 0;
  fountain::Params params;
  fountain::Frame frame;
  BlockShape block;
  int colour_by = 0;           // insight::ColourBy; ids written to `ids` when set
  bool reset = false;          // (re)initialise positions and vy from `seed`
  uint64_t seed = 1;
  int steps = 1;               // bench: several steps, each timed
  std::optional<SharedBuffer> in, out, ids;  // absent: runner-owned buffers
  bool return_positions = false;             // reply carries the positions (tests, bench)
};

// The student's count3 kernel over the lab's data (reduce::make_data(n, seed)
// generated in the runner), or pi over `n` samples.
struct LabRequest {
  long long n = 0;
  uint64_t seed = 1;
  BlockShape block;
  int reps = 1;
};

struct LaunchOutcome {
  bool ok = false;
  std::vector<double> kernel_ms;       // per launch (CUDA events / steady clock)
  std::optional<KernelFault> fault;    // when !ok
  long long result = 0;                // labs: the answer
  std::vector<float> positions;        // fountain with return_positions: 4 floats a particle
  nlohmann::json reply;                // the runner's whole reply (for bench)
};

struct LoadOutcome {
  bool ok = false;
  std::string error;            // why not, in words
  KernelResources resources;    // cuFuncGetAttribute (GPU) / ptxas' (CPU: none)
  double load_ms = 0;
};

// Occupancy of the loaded kernel for a block (cuOccupancyMaxActiveBlocksPerMultiprocessor).
struct OccupancyReply {
  bool ok = false;
  std::string error;      // e.g. the block cannot launch: the reason
  int blocks_per_sm = 0;
  int warps_per_sm = 0, max_warps_per_sm = 0;
  std::string limiter;    // "registers", "shared memory", "threads", "blocks"
};

class RunnerClient {
 public:
  RunnerClient(std::string runner_path, Backend backend);
  ~RunnerClient();
  RunnerClient(const RunnerClient&) = delete;
  RunnerClient& operator=(const RunnerClient&) = delete;

  Backend backend() const { return backend_; }
  bool running() const { return proc_ != nullptr; }
  // What the runner said about itself (device, backend), {} before it started.
  const nlohmann::json& hello() const { return hello_; }

  // Starts the process now (else the first load() does): the CUDA context's
  // creation then leaves the edit-to-running path. Throws std::runtime_error.
  void start() { ensure_started(); }
  // Whether this runner has mapped shared buffer `id` (then no fd need travel).
  bool has_shared(uint64_t id) const;
  // Sends the compiled kernel (cubin / shared object). Starts the runner when needed.
  LoadOutcome load(const CompileResult& compiled, double time_limit_s);
  LaunchOutcome fountain(const FountainRequest& req, double time_limit_s);
  LaunchOutcome count3(const LabRequest& req, double time_limit_s);
  LaunchOutcome pi(const LabRequest& req, double time_limit_s);
  OccupancyReply occupancy(const BlockShape& block, double time_limit_s);
  // Ends the runner (SIGKILL, reap); the next load() starts a new one.
  void stop();

 private:
  void ensure_started();
  // One request/reply; on a time-out, EOF or a fault the process is ended and
  // the fault described. `blob` travels after the JSON (cubin).
  std::optional<KernelFault> call(const nlohmann::json& request, const std::vector<char>& blob,
                                  const std::vector<int>& fds, double time_limit_s,
                                  nlohmann::json& reply, std::vector<char>& reply_blob);
  // `deadline_s`: how long the reply may take; `limit_s`: the user's limit, for the words.
  LaunchOutcome launch(const nlohmann::json& request, double deadline_s, double limit_s);

  std::string path_;
  Backend backend_;
  std::unique_ptr<RunnerProcess> proc_;
  nlohmann::json hello_;
  std::vector<uint64_t> shared_ids_;        // buffers this runner has mapped
  std::optional<CompileResult> loaded_;     // re-sent after a restart
};

}  // namespace cv::usercode
