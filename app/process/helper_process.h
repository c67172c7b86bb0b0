#pragma once
// One of our helper processes (cudaviz-runner, cudaviz-explain), which run a
// student's code: started as `PATH --socket 3 ARGS...` with one end of a Unix
// socketpair as its descriptor 3 (and nothing else of ours above 2) and the
// student environment (spawn.h), so a crash in the student's code reaches us
// as the signal it is. Ended (SIGKILL, reaped) on destruction; a helper stuck
// in the GPU driver is reaped by a detached thread (child.h).
#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include "process/child.h"

namespace cv {

class HelperProcess {
 public:
  enum class Stdout { Inherit, Null };
  // Throws std::runtime_error naming the call and the OS error when it cannot start.
  HelperProcess(const std::string& path, const std::vector<std::string>& args,
                Stdout out = Stdout::Inherit);
  ~HelperProcess();
  HelperProcess(const HelperProcess&) = delete;
  HelperProcess& operator=(const HelperProcess&) = delete;

  int socket() const { return sock_; }
  pid_t pid() const { return child_.pid(); }
  // Ends it if it still runs ("killed"), else says how it ended ("SIGSEGV",
  // "exit 1": exit_words.h's ended_words); the same words every call after.
  std::string kill_and_reap();
  // Non-blocking: how it ended if it did, else "".
  std::string exited();
  // Its wait status once it has ended by itself (not when it was killed here).
  std::optional<int> status() const { return status_; }
  // Waits up to `seconds` for it to end by itself; its wait status, or nullopt.
  std::optional<int> wait_for(double seconds);

 private:
  void ended(int status);

  Child child_;
  int sock_ = -1;
  bool done_ = false;           // ended and reaped (or handed to the reaper)
  std::string ended_;           // how, in words
  std::optional<int> status_;   // the wait status when it ended by itself
};

}  // namespace cv
