#include "process/child_process.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "process/spawn.h"

namespace cv {
namespace {

std::runtime_error os_error(const std::string& call, int err) {
  return std::runtime_error(call + " failed: " + std::strerror(err));
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// An unlinked temporary file for the child's stderr: nothing to clean up.
int anonymous_file(const std::string& dir) {
  std::string name = (dir.empty() ? std::string("/tmp") : dir) + "/cudaviz-child-XXXXXX";
  const int fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0) throw os_error("mkostemp(" + name + ")", errno);
  ::unlink(name.c_str());
  return fd;
}

}  // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const std::string& tmpdir) {
  if (argv.empty()) throw std::runtime_error("ChildProcess: no program given");
  int ends[2];
  // CLOEXEC on both ends: the child gets its end only as fd 0 (dup2 clears
  // the flag there), so no other process keeps the socket open and EOF arrives.
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0)
    throw os_error("socketpair", errno);
  stdin_fd_ = ends[0];
  int child_end = ends[1];
  // Room for a few frames in flight (the kernel caps it at net.core.wmem_max).
  const int sndbuf = 8 << 20;
  ::setsockopt(stdin_fd_, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof sndbuf);
  ::shutdown(stdin_fd_, SHUT_RD);  // this end only writes
  try {
    stderr_fd_ = anonymous_file(tmpdir);
  } catch (...) {
    close_fd(stdin_fd_);
    close_fd(child_end);
    throw;
  }
  // Its own process group, so a Ctrl-C in the terminal reaches the app, which
  // ends the child in order, rather than cutting the encoder off mid-file.
  SpawnPlan plan(argv);
  plan.dup(child_end, 0).null(1).dup(stderr_fd_, 2).own_group();
  const int err = plan.start(child_);
  close_fd(child_end);
  if (err != 0) {
    close_fd(stdin_fd_);
    close_fd(stderr_fd_);
    throw os_error("posix_spawn(" + argv[0] + ")", err);
  }
}

ChildProcess::~ChildProcess() {
  close_stdin();
  if (!wait_for(5.0)) {  // it had its EOF: a child still busy after 5 s is stuck
    kill();
    wait_for(60.0);
  }
  close_fd(stderr_fd_);
}

int ChildProcess::write_all(const void* data, size_t bytes) {
  const char* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::send(stdin_fd_, p, bytes, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    p += n;
    bytes -= static_cast<size_t>(n);
  }
  return 0;
}

void ChildProcess::close_stdin() { close_fd(stdin_fd_); }

std::optional<int> ChildProcess::wait_for(double seconds) { return child_.wait_for(seconds); }

void ChildProcess::kill() { child_.kill(); }

std::string ChildProcess::stderr_tail(size_t max_bytes) const {
  struct stat st {};
  if (stderr_fd_ < 0 || ::fstat(stderr_fd_, &st) != 0 || st.st_size <= 0) return "";
  const off_t size = st.st_size;
  // One byte more than asked for: whether the tail starts at a line's start.
  const off_t from = size > static_cast<off_t>(max_bytes) ? size - static_cast<off_t>(max_bytes) - 1 : 0;
  std::string text(static_cast<size_t>(size - from), '\0');
  const ssize_t n = ::pread(stderr_fd_, text.data(), text.size(), from);
  text.resize(n > 0 ? static_cast<size_t>(n) : 0);
  // Starting mid-line: keep whole lines only.
  if (from > 0)
    if (const size_t nl = text.find('\n'); nl != std::string::npos) text.erase(0, nl + 1);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' '))
    text.pop_back();
  return text;
}

}  // namespace cv
