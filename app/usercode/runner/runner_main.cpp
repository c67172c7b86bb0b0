// cudaviz-runner: runs student kernels for the app, in its own process, so a
// fault ends this process and never the app (docs/kernels.md). Started by
// usercode::RunnerProcess with one end of a socketpair:
//   cudaviz-runner --socket FD --backend cuda|cpu [--device N]
// It serves requests until the socket closes or a fatal CUDA error.
#include <cuda_runtime_api.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "common/device_select.h"
#include "usercode/runner/runner_executor.h"
#include "usercode/runner/runner_signals.h"
#include "usercode/wire/protocol.h"

namespace cv::usercode::runner {

namespace {

int serve(int sock, Executor& ex) {
  for (;;) {
    wire::Frame req;
    std::string error;
    const wire::Status s = wire::receive(sock, req, -1, error);
    if (s == wire::Status::Closed) return 0;
    if (s != wire::Status::Ok) {
      std::fprintf(stderr, "cudaviz-runner: %s\n", error.c_str());
      return 1;
    }
    const std::string op = req.json.value("op", "");
    nlohmann::json reply;
    std::vector<char> blob;
    try {
      if (op == "hello") reply = ex.hello();
      else if (op == "load") reply = ex.load(req);
      else if (op == "share") reply = ex.share(req);
      else if (op == "launch") {
        // The runner's own share of a round trip (decode, bind, launch, wait,
        // read back), so the app can tell it from the socket's.
        const auto t0 = std::chrono::steady_clock::now();
        reply = ex.launch(req, blob);
        reply["runner_ms"] = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
      }
      else if (op == "occupancy") reply = ex.occupancy(req);
      else if (op == "exit") return 0;
      else reply = error_reply("protocol", "unknown request '" + op + "'", false);
    } catch (const std::exception& e) {
      // Setup failures (allocation, a CUDA call): the context may be gone.
      reply = error_reply("runner", e.what(), true);
    }
    for (int fd : req.fds) close(fd);
    if (std::string e = wire::send(sock, reply, blob); !e.empty()) {
      std::fprintf(stderr, "cudaviz-runner: %s\n", e.c_str());
      return 1;
    }
    if (reply.value("fatal", false)) return 3;  // the CUDA context is unusable: end
  }
}

}  // namespace
}  // namespace cv::usercode::runner

int main(int argc, char** argv) {
  // Ends with the app even while stuck in a student's kernel.
  const pid_t parent = getppid();
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) return 1;
  // Ctrl+C in the app's terminal reaches this process too (one process group):
  // it is the app's to act on (process/stop_signal.h), which ends this process
  // in its own order as it closes.
  signal(SIGINT, SIG_IGN);
  int sock = -1, device = 0;
  std::string backend = "cpu";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--socket")) sock = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--backend")) backend = argv[i + 1];
    else if (!std::strcmp(argv[i], "--device")) device = std::atoi(argv[i + 1]);
  }
  if (sock < 0 || (backend != "cuda" && backend != "cpu")) {
    std::fprintf(stderr,
                 "usage: cudaviz-runner --socket FD --backend cuda|cpu (started by cudaviz)\n");
    return 2;
  }
  std::unique_ptr<cv::usercode::runner::Executor> ex;
  try {
    if (backend == "cuda") {
      cv::select_device(device);  // recorded, so device_report() describes this device
      if (cudaError_t e = cudaSetDevice(device); e != cudaSuccess)
        throw std::runtime_error(std::string("cudaSetDevice: ") + cudaGetErrorName(e));
      ex = cv::usercode::runner::make_gpu_executor();
    } else {
      ex = cv::usercode::runner::make_cell_executor();  // student code runs in cells only
    }
  } catch (const std::exception& e) {
    // Tell the app why, then end.
    cv::usercode::wire::send(sock, cv::usercode::runner::error_reply("runner", e.what(), true));
    return 1;
  }
  return cv::usercode::runner::serve(sock, *ex);
}
