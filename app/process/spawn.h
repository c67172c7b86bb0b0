#pragma once
// Starting a child process: posix_spawn (no fork of a large GL process), its
// program and arguments, what each of its descriptors is, its environment
// and signals. Every child of the app starts here (process/README.md).
#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include "process/child.h"
#include "process/child_env.h"

namespace cv {

class SpawnPlan {
 public:
  // argv[0] is a path; search_path() looks a bare name up on PATH instead.
  // Descriptors 0-2 are the app's own unless set below; every other one of
  // ours marked close-on-exec stays out of the child.
  explicit SpawnPlan(std::vector<std::string> argv);
  ~SpawnPlan();
  SpawnPlan(const SpawnPlan&) = delete;
  SpawnPlan& operator=(const SpawnPlan&) = delete;

  SpawnPlan& search_path();  // posix_spawnp
  // The child's `child_fd` is `path` opened with `flags` (and `mode` when created).
  SpawnPlan& open(int child_fd, const std::string& path, int flags, mode_t mode = 0);
  SpawnPlan& null(int child_fd);  // /dev/null, read-only for 0, write-only otherwise
  // Our descriptor `fd` is the child's `child_fd` (dup2 clears close-on-exec there).
  SpawnPlan& dup(int fd, int child_fd);
  // No descriptor from `lowest` up reaches the child, close-on-exec or not.
  SpawnPlan& close_from(int lowest);
  // It runs a student's code: a crash must reach us as the signal it is, also
  // in a sanitizer build (child_env.h). Else it gets this process's environment.
  SpawnPlan& student_environment();
  // Its own process group, default signals and an empty signal mask, whatever
  // the starting thread has: a Ctrl-C in the terminal reaches the app, which
  // ends the child in order (the recorder's encoder), not the child directly.
  SpawnPlan& own_group();

  // Starts it into `child` (which must hold no process): 0, or the errno of
  // posix_spawn (the caller says what could not start, in its own words).
  int start(Child& child);
  const std::vector<std::string>& argv() const { return argv_; }

 private:
  std::vector<std::string> argv_;
  bool search_path_ = false, own_group_ = false;
  std::optional<ChildEnvironment> student_env_;
  struct Action;
  std::vector<Action> actions_;
};

}  // namespace cv
