#pragma once
// The environment for a process that runs a student's code (cudaviz-runner,
// cudaviz-explain): this process's own, except that in a sanitizer build
// (scripts/sanitize.sh) AddressSanitizer leaves the fault signals alone, so a
// student's crash reaches the parent as the signal it is (SIGSEGV, SIGBUS,
// ...) instead of a report and exit 1. The parent keeps ASan's handlers.
#include <string>
#include <vector>

namespace cv {

class ChildEnvironment {
 public:
  ChildEnvironment();
  char** get() { return envp_.data(); }  // for posix_spawn's envp

 private:
  std::vector<std::string> text_;
  std::vector<char*> envp_;
};

}  // namespace cv
