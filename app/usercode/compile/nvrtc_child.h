#pragma once
// NVRTC for code from the network: the compile runs in a child process
// (`cudaviz-nvrtc DIR`), so it can be stopped at a time limit and
// killed, and confined: new user and network namespaces where allowed,
// Landlock letting it read only NVRTC's own library folder and write only
// DIR, limits on its output files, memory and CPU time. The app's own
// compiles (the kernel tab) keep the in-process NVRTC (no process start).
#include <string>
#include <vector>

namespace cv::usercode {

constexpr double kIsolatedCompileLimitS = 30;  // wall time of one isolated NVRTC compile

struct NvrtcJob {
  std::string program, file_name;
  std::vector<std::pair<std::string, std::string>> headers;  // in-memory headers: name, text
  std::vector<std::string> options;
  bool want_cubin = false;
};

struct NvrtcOutput {
  bool ran = false;    // the child answered (then `result` is nvrtcCompileProgram's)
  int result = -1;     // NVRTC_SUCCESS (0) or an nvrtcResult
  std::string result_name;
  std::string log, ptx;
  std::vector<char> cubin;
  std::string error;   // why it did not run or was stopped (names the limit)
  std::string sandbox; // what confined it, in words
};

// The app's side: runs `job` in `helper` (cudaviz-nvrtc) in a private
// directory under `tmpdir`, stopped after `limit_s`.
NvrtcOutput nvrtc_in_child(const NvrtcJob& job, const std::string& helper, const std::string& tmpdir,
                           double limit_s = kIsolatedCompileLimitS);

// The child's side (cudaviz-nvrtc DIR): DIR/request.json in;
// result.json, log.txt, kernel.ptx, kernel.cubin out. Its exit status.
int nvrtc_child_main(const std::string& dir);

}  // namespace cv::usercode
