#include "process/run_program.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "process/spawn.h"

namespace cv {
namespace {

using Clock = std::chrono::steady_clock;

std::string cannot_run(const std::vector<std::string>& argv, int e) {
  return "cannot run " + (argv.empty() ? std::string("nothing") : argv[0]) + ": " + std::strerror(e);
}

std::string stopped(const std::vector<std::string>& argv, double limit_s) {
  return argv[0] + " ran longer than " + std::to_string(static_cast<int>(limit_s)) + " s and was stopped";
}

// Waits for the child until the deadline; else kills it and says so.
std::string finish(Child& child, const std::vector<std::string>& argv, Clock::time_point deadline,
                   double limit_s, int& status) {
  const double left = std::chrono::duration<double>(deadline - Clock::now()).count();
  if (auto s = child.wait_for(left > 0 ? left : 0)) {
    status = *s;
    return "";
  }
  child.kill();
  status = child.wait();
  return stopped(argv, limit_s);
}

}  // namespace

std::string run_to_log(const std::vector<std::string>& argv, const std::string& log_path, double limit_s,
                       int& status) {
  SpawnPlan plan(argv);
  plan.search_path().own_group().open(1, log_path, O_WRONLY | O_CREAT | O_APPEND, 0600).dup(1, 2).null(0);
  Child child;
  if (const int e = plan.start(child); e != 0) return cannot_run(argv, e);
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limit_s));
  return finish(child, argv, deadline, limit_s, status);
}

std::string run_capture(const std::vector<std::string>& argv, const std::string& stdin_path, double limit_s,
                        std::string& out, int& status) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return std::string("pipe: ") + std::strerror(errno);
  SpawnPlan plan(argv);
  plan.search_path().dup(fds[1], 1).null(2);
  if (stdin_path.empty()) plan.null(0);
  else plan.open(0, stdin_path, O_RDONLY);
  Child child;
  const int e = plan.start(child);
  close(fds[1]);
  if (e != 0) {
    close(fds[0]);
    return cannot_run(argv, e);
  }
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limit_s));
  for (;;) {  // until EOF (the child closed its stdout: it ended) or the deadline
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) break;
    pollfd p{fds[0], POLLIN, 0};
    if (poll(&p, 1, static_cast<int>(left) + 1) <= 0) continue;
    char buf[65536];
    const ssize_t n = read(fds[0], buf, sizeof buf);
    if (n > 0) out.append(buf, static_cast<size_t>(n));
    else if (n == 0 || errno != EINTR) break;
  }
  close(fds[0]);
  return finish(child, argv, deadline, limit_s, status);
}

}  // namespace cv
