// cudaviz-nvrtc: one NVRTC compile of a submission, confined (nvrtc_child.h).
//   cudaviz-nvrtc DIR      DIR/request.json in; result.json, log.txt, kernel.ptx, kernel.cubin out
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cstdio>

#include "usercode/compile/nvrtc_child.h"

int main(int argc, char** argv) {
  const pid_t parent = getppid();
  prctl(PR_SET_PDEATHSIG, SIGKILL);  // ends with the app
  if (getppid() != parent) return 1;
  if (argc != 2) {
    std::fprintf(stderr, "usage: cudaviz-nvrtc DIR (started by cudaviz)\n");
    return 2;
  }
  return cv::usercode::nvrtc_child_main(argv[1]);
}
