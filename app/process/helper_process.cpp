#include "process/helper_process.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "process/exit_words.h"
#include "process/spawn.h"

namespace cv {
namespace {

constexpr int kChildFd = 3;
constexpr double kReapGraceS = 0.05;  // then the detached reaper (child.h)

}  // namespace

HelperProcess::HelperProcess(const std::string& path, const std::vector<std::string>& args, Stdout out) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    throw std::runtime_error(std::string("socketpair: ") + std::strerror(errno));
  std::vector<std::string> argv = {path, "--socket", std::to_string(kChildFd)};
  argv.insert(argv.end(), args.begin(), args.end());
  SpawnPlan plan(argv);
  plan.dup(sv[1], kChildFd).close_from(kChildFd + 1).student_environment();
  if (out == Stdout::Null) plan.null(1);
  const int e = plan.start(child_);
  close(sv[1]);
  if (e != 0) {
    close(sv[0]);
    throw std::runtime_error("posix_spawn(" + path + "): " + std::strerror(e));
  }
  sock_ = sv[0];
}

HelperProcess::~HelperProcess() {
  kill_and_reap();
  if (sock_ >= 0) close(sock_);
}

void HelperProcess::ended(int status) {
  done_ = true;
  status_ = status;
  ended_ = ended_words(status);
}

std::string HelperProcess::kill_and_reap() {
  if (done_) return ended_;
  // How it ended, if it already had (a crash), else we end it.
  if (auto s = child_.poll()) {
    ended(*s);
  } else {
    child_.end(kReapGraceS);
    done_ = true;
    ended_ = "killed";
  }
  return ended_;
}

std::string HelperProcess::exited() {
  if (!done_)
    if (auto s = child_.poll()) ended(*s);
  return ended_;
}

std::optional<int> HelperProcess::wait_for(double seconds) {
  if (!done_)
    if (auto s = child_.wait_for(seconds)) ended(*s);
  return status_;
}

}  // namespace cv
