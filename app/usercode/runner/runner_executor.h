#pragma once
// Inside cudaviz-runner: what runs the student's kernel. One executor per
// backend (runner_gpu.cpp: driver API in the runtime's primary context;
// runner_cpu.cpp: the host-compiled .so on threads, whole kernels through the
// emulator). Requests and replies are the JSON of wire/protocol.h; a reply
// {"ok": false, "fatal": true} means the CUDA context is unusable and the
// runner ends after sending it. No executor knows any template: a launch is
// a shape and an argument list (launch_request.h, args/arg_binder.h).
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "usercode/wire/protocol.h"

namespace cv::usercode::runner {

class Executor {
 public:
  virtual ~Executor() = default;
  virtual nlohmann::json hello() = 0;
  virtual nlohmann::json load(const wire::Frame& req) = 0;
  virtual nlohmann::json share(const wire::Frame& req) = 0;  // one fd: map buffer `id`
  // The generic launch; read-back bytes go to `blob`.
  virtual nlohmann::json launch(const wire::Frame& req, std::vector<char>& blob) = 0;
  virtual nlohmann::json occupancy(const wire::Frame& req) = 0;
};

std::unique_ptr<Executor> make_gpu_executor();  // throws std::runtime_error: no device
std::unique_ptr<Executor> make_cpu_executor();
// The CPU backend of the runner process: each module in a sandboxed cell
// (runner_cell.cpp) that runs make_cpu_executor()'s executor.
std::unique_ptr<Executor> make_cell_executor();

nlohmann::json error_reply(const std::string& name, const std::string& message, bool fatal);

// The checked-mode record the prelude's accessors fill (same layout as cv::FaultRecord).
struct FaultRecord {
  int hit, line;
  long long index, size;
  unsigned thread[3], block[3];
  unsigned long long pc;  // CPU builds: the access's return address (0 on the GPU)
};
nlohmann::json out_of_range_json(const FaultRecord& r);

// Loaded modules are kept by name (the editor's kernel, a lab's); at most this many.
constexpr size_t kMaxModules = 8;

}  // namespace cv::usercode::runner
