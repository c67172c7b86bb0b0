#include "process/child_env.h"

extern char** environ;

namespace cv {

ChildEnvironment::ChildEnvironment() {
  for (char** v = environ; *v; ++v) text_.emplace_back(*v);
#if defined(__SANITIZE_ADDRESS__)
  const char* keep_signals = "handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0";
  bool set = false;
  for (std::string& v : text_)
    if (v.rfind("ASAN_OPTIONS=", 0) == 0) {
      v += std::string(":") + keep_signals;
      set = true;
    }
  if (!set) text_.emplace_back(std::string("ASAN_OPTIONS=") + keep_signals);
#endif
  for (std::string& v : text_) envp_.push_back(v.data());
  envp_.push_back(nullptr);
}

}  // namespace cv
