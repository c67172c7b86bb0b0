#include "process/child.h"

#include <signal.h>
#include <sys/wait.h>

#include <cerrno>
#include <chrono>
#include <thread>

namespace cv {

Child::~Child() {
  if (started()) end(0.05);
}

void Child::attach(pid_t pid, bool group) {
  std::lock_guard<std::mutex> lock(mutex_);
  pid_ = pid;
  group_ = group;
  reaped_ = false;
  status_ = 0;
}

std::optional<int> Child::reap_locked() {
  if (reaped_) return status_;
  if (pid_ <= 0) return std::nullopt;
  int status = 0;
  pid_t r;
  do r = ::waitpid(pid_, &status, WNOHANG);
  while (r < 0 && errno == EINTR);
  // ECHILD: someone else reaped it (SIGCHLD ignored); it has ended all the same.
  if (r == pid_ || (r < 0 && errno == ECHILD)) {
    reaped_ = true;
    status_ = r == pid_ ? status : 0;
    return status_;
  }
  return std::nullopt;
}

std::optional<int> Child::poll() {
  std::lock_guard<std::mutex> lock(mutex_);
  return reap_locked();
}

std::optional<int> Child::wait_for(double seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  for (;;) {
    if (auto s = poll()) return s;
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

int Child::wait() {
  // Polling, not a blocking waitpid under the lock: kill() from another thread must not wait.
  if (!started()) return 0;
  for (;;) {
    if (auto s = poll()) return *s;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

void Child::kill() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (reaped_ || pid_ <= 0) return;
  if (group_) ::kill(-pid_, SIGKILL);  // the group still exists while its leader is unreaped
  ::kill(pid_, SIGKILL);
}

std::optional<int> Child::end(double grace_s) {
  if (auto s = poll()) return s;
  kill();
  if (auto s = wait_for(grace_s)) return s;
  std::lock_guard<std::mutex> lock(mutex_);
  if (reaped_) return status_;
  std::thread([pid = pid_] {
    int st = 0;
    while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
  }).detach();
  reaped_ = true;  // the thread's now: never signalled or waited for again here
  status_ = 0;
  return std::nullopt;
}

}  // namespace cv
