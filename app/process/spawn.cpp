#include "process/spawn.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>

extern char** environ;

namespace cv {

struct SpawnPlan::Action {
  enum class Kind { Open, Dup, CloseFrom } kind;
  int fd = -1, child_fd = -1;
  std::string path;
  int flags = 0;
  mode_t mode = 0;
};

SpawnPlan::SpawnPlan(std::vector<std::string> argv) : argv_(std::move(argv)) {}
SpawnPlan::~SpawnPlan() = default;

SpawnPlan& SpawnPlan::search_path() {
  search_path_ = true;
  return *this;
}

SpawnPlan& SpawnPlan::open(int child_fd, const std::string& path, int flags, mode_t mode) {
  actions_.push_back({Action::Kind::Open, -1, child_fd, path, flags, mode});
  return *this;
}

SpawnPlan& SpawnPlan::null(int child_fd) {
  return open(child_fd, "/dev/null", child_fd == 0 ? O_RDONLY : O_WRONLY);
}

SpawnPlan& SpawnPlan::dup(int fd, int child_fd) {
  actions_.push_back({Action::Kind::Dup, fd, child_fd, "", 0, 0});
  return *this;
}

SpawnPlan& SpawnPlan::close_from(int lowest) {
  actions_.push_back({Action::Kind::CloseFrom, lowest, -1, "", 0, 0});
  return *this;
}

SpawnPlan& SpawnPlan::student_environment() {
  student_env_.emplace();
  return *this;
}

SpawnPlan& SpawnPlan::own_group() {
  own_group_ = true;
  return *this;
}

namespace {

// posix_spawn's attribute and file-action objects, destroyed on every path.
struct SpawnSetup {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  SpawnSetup() {
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attr);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
};

void set_own_group(posix_spawnattr_t& attr) {
  sigset_t none, pipe;
  sigemptyset(&none);
  sigemptyset(&pipe);
  sigaddset(&pipe, SIGPIPE);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &pipe);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
}

}  // namespace

int SpawnPlan::start(Child& child) {
  if (argv_.empty()) return EINVAL;
  SpawnSetup s;
  for (const Action& a : actions_) switch (a.kind) {
      case Action::Kind::Open:
        posix_spawn_file_actions_addopen(&s.actions, a.child_fd, a.path.c_str(), a.flags, a.mode);
        break;
      case Action::Kind::Dup:
        posix_spawn_file_actions_adddup2(&s.actions, a.fd, a.child_fd);
        break;
      case Action::Kind::CloseFrom:
        posix_spawn_file_actions_addclosefrom_np(&s.actions, a.fd);
        break;
    }
  if (own_group_) set_own_group(s.attr);
  std::vector<char*> args;
  for (const std::string& a : argv_) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  char** envp = student_env_ ? student_env_->get() : environ;
  pid_t pid = -1;
  const int e = search_path_ ? posix_spawnp(&pid, args[0], &s.actions, &s.attr, args.data(), envp)
                             : posix_spawn(&pid, args[0], &s.actions, &s.attr, args.data(), envp);
  if (e == 0) child.attach(pid, own_group_);
  return e;
}

}  // namespace cv
