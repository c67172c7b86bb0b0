#pragma once
// A child process fed through its standard input (the recorder's ffmpeg): one
// RAII owner of the process (process/child.h), its stdin and its captured
// stderr. Spawned with posix_spawn (process/spawn.h). Stdin is one end of a Unix
// stream socket rather than a pipe, so every write can pass MSG_NOSIGNAL: a
// child that dies mid-write gives EPIPE here, never a SIGPIPE that would end
// the app. Stderr goes to an unlinked temporary file, read back for error
// messages (no reader thread, and a chatty child can never block on it).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "process/child.h"
#include "process/exit_words.h"

namespace cv {

class ChildProcess {
 public:
  // Starts argv[0] (a path, not searched on PATH) with argv, the app's
  // environment, stdout on /dev/null; its stderr goes to a file in `tmpdir`
  // ($TMPDIR: PathConfig::tmpdir). Throws std::runtime_error naming the call
  // and the OS error when it cannot.
  explicit ChildProcess(const std::vector<std::string>& argv, const std::string& tmpdir = "/tmp");
  // Closes stdin; a child still running after that is killed and reaped.
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Writes all of `data` to the child's stdin. 0 on success, else the errno
  // (EPIPE: the child closed its stdin or ended). Never raises SIGPIPE.
  int write_all(const void* data, size_t bytes);
  // End of input for the child (it sees EOF).
  void close_stdin();
  // Waits up to `seconds` for the child to end; its wait status (waitpid), or
  // nullopt when it is still running. Safe to call from another thread than kill().
  std::optional<int> wait_for(double seconds);
  // SIGKILL, unless the child was already reaped.
  void kill();
  // The last `max_bytes` the child wrote to stderr, trimmed of blank lines.
  std::string stderr_tail(size_t max_bytes = 2000) const;

 private:
  Child child_;
  int stdin_fd_ = -1;
  int stderr_fd_ = -1;
};

}  // namespace cv
