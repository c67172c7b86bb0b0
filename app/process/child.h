#pragma once
// One started child process, owned: reaped once (its wait status kept), sent
// SIGKILL only while it is not yet reaped, so a pid the system handed to
// another process is never hit, and ended when the owner goes. Safe to use
// from two threads (the recorder's writer waits while the UI thread kills).
#include <sys/types.h>

#include <mutex>
#include <optional>

namespace cv {

class Child {
 public:
  Child() = default;  // no process yet: SpawnPlan::start gives it one
  // A child still running is ended as end(0.05) ends it.
  ~Child();
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  // Takes a started process (this must hold none); `group`: it leads its own
  // process group, and kill() ends the whole group (a compiler's cc1plus too).
  void attach(pid_t pid, bool group = false);
  pid_t pid() const { return pid_; }
  bool started() const { return pid_ > 0; }
  // Its wait status (waitpid's) once it has ended, else nullopt; never blocks.
  std::optional<int> poll();
  // Waits up to `seconds` for it to end, looking every 2 ms.
  std::optional<int> wait_for(double seconds);
  // Waits for it to end, however long that takes (0 for a Child with no process).
  int wait();
  // SIGKILL (to its group when it leads one), unless it was reaped already.
  void kill();
  // SIGKILL, then up to `grace_s` for it to go. A process stuck in a GPU
  // kernel can take the driver a while to tear down: after the grace a
  // detached thread reaps it and this returns nullopt, so the caller (the
  // window) never waits on the driver.
  std::optional<int> end(double grace_s);

 private:
  std::optional<int> reap_locked();  // waitpid(WNOHANG)

  pid_t pid_ = -1;
  std::mutex mutex_;     // guards what follows: kill() must not hit a reaped (reused) pid
  bool reaped_ = false;  // or handed to the detached reaper
  bool group_ = false;
  int status_ = 0;
};

}  // namespace cv
