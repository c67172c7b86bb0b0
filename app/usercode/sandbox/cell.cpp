#include "usercode/sandbox/cell.h"

#include <fcntl.h>
#include <malloc.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "usercode/sandbox/landlock.h"
#include "usercode/sandbox/seccomp_policy.h"

namespace cv::sandbox {
namespace {

// The SIGSYS handler's only way to its record: a signal handler gets no
// argument of ours. Written once per cell, before the policy is installed.
Violation* g_violation_record = nullptr;

void on_sigsys(int, siginfo_t* si, void* context) {
  Violation* v = g_violation_record;
  if (v) {
    v->nr = si->si_syscall;
    v->category = static_cast<uint32_t>(si->si_errno);  // SECCOMP_RET_DATA
    const auto* uc = static_cast<const ucontext_t*>(context);
    const long nr = si->si_syscall;
    const int size_arg = nr == SYS_mremap ? 2 : 1;  // mmap's length, mremap's new length
#if defined(__x86_64__)
    v->arg = static_cast<uint64_t>(uc->uc_mcontext.gregs[size_arg == 1 ? REG_RSI : REG_RDX]);
#elif defined(__aarch64__)
    v->arg = uc->uc_mcontext.regs[size_arg];
#endif
    __atomic_store_n(&v->magic, kViolationMagic, __ATOMIC_RELEASE);
  }
  syscall(SYS_exit_group, kViolationExit);
}

std::string errno_text(const char* call) { return std::string(call) + ": " + std::strerror(errno); }

void add_missing(Protections& p, const std::string& why) { p.missing += (p.missing.empty() ? "" : "; ") + why; }

// Virtual memory the process maps now (/proc/self/statm's first field, in pages).
uint64_t mapped_bytes() {
  std::ifstream f("/proc/self/statm");
  uint64_t pages = 0;
  f >> pages;
  return pages * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

bool set_limit(int resource, uint64_t v) {
  const rlimit r{static_cast<rlim_t>(v), static_cast<rlim_t>(v)};
  return setrlimit(resource, &r) == 0;
}

// Descriptors: 0-2 on /dev/null, `keep` moved to 3, all others closed.
int tidy_descriptors(int keep) {
  const int null = open("/dev/null", O_RDWR | O_CLOEXEC);
  for (int fd = 0; fd < 3 && null >= 0; ++fd)
    if (fd != keep) dup2(null, fd);
  if (keep != 3) {
    if (dup3(keep, 3, O_CLOEXEC) < 0) return -1;
    if (keep > 3) close(keep);
  }
  syscall(SYS_close_range, 4u, ~0u, 0u);
  return 3;
}

void namespaces(Protections& p) {
  if (unshare(CLONE_NEWUSER) == 0) p.user_namespace = true;
  else add_missing(p, "user namespace: " + errno_text("unshare(CLONE_NEWUSER)"));
  // Inside a new user namespace the cell holds CAP_SYS_ADMIN there; without
  // one, root can still make the others.
  if (unshare(CLONE_NEWNET) == 0) p.network_namespace = true;
  else add_missing(p, "network namespace: " + errno_text("unshare(CLONE_NEWNET)"));
  if (unshare(CLONE_NEWIPC) == 0) p.ipc_namespace = true;
  else add_missing(p, "IPC namespace: " + errno_text("unshare(CLONE_NEWIPC)"));
}

}  // namespace

std::string Protections::describe() const {
  std::string s;
  auto add = [&](bool on, const std::string& what) {
    if (on) s += (s.empty() ? "" : ", ") + what;
  };
  add(seccomp, "seccomp (no files, processes, network or other processes)");
  std::string ns;
  if (user_namespace) ns += "user";
  if (network_namespace) ns += std::string(ns.empty() ? "" : "+") + "net";
  if (ipc_namespace) ns += std::string(ns.empty() ? "" : "+") + "ipc";
  add(!ns.empty(), ns + " namespaces");
  add(landlock, "landlock (reads its module only)");
  char mem[64];
  std::snprintf(mem, sizeof mem, "rlimits (address space %.1f GiB)", static_cast<double>(memory_bytes) / (1 << 30));
  add(rlimits, mem);
  if (s.empty()) s = "none";
  if (!missing.empty()) s += "; not active: " + missing;
  return s;
}

Protections confine(int keep_fd, const std::string& module_path, const CellLimits& limits) {
  Protections p;
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);  // no ptrace or /proc/PID/mem from peers
  if (tidy_descriptors(keep_fd) < 0) add_missing(p, errno_text("dup3 (the cell's socket)"));
  // One malloc arena: a thread's own arena, when it shrinks, makes glibc read
  // /proc/sys/vm/overcommit_memory, a file the policy forbids.
  mallopt(M_ARENA_MAX, 1);
  namespaces(p);
  const uint64_t now = mapped_bytes();
  p.memory_bytes = now + limits.memory_bytes;
  p.rlimits = set_limit(RLIMIT_AS, p.memory_bytes) && set_limit(RLIMIT_FSIZE, 0) && set_limit(RLIMIT_CORE, 0) &&
              set_limit(RLIMIT_NOFILE, static_cast<uint64_t>(limits.max_descriptors));
  if (!p.rlimits) add_missing(p, errno_text("setrlimit"));
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) add_missing(p, errno_text("prctl(PR_SET_NO_NEW_PRIVS)"));
  const std::string why = restrict_files_to(module_path);
  p.landlock = why.empty();
  if (!p.landlock) add_missing(p, "landlock: " + why);
  return p;
}

void lock(Protections& p, Violation* record, const CellLimits& limits) {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  // The sanitizer's runtime (scripts/sanitize.sh) reads /proc and maps large
  // regions on its own schedule: under the policy it would be stopped as the
  // student. Such a build says so, and the attack tests skip.
  (void)record, (void)limits;
  add_missing(p, "seccomp: not installed in a sanitizer build (its runtime makes calls the policy forbids)");
  return;
#endif
  g_violation_record = record;
  struct sigaction sa = {};
  sa.sa_sigaction = on_sigsys;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGSYS, &sa, nullptr);
  PolicyOptions o;
  o.self = getpid();
  o.max_mapping_bytes = limits.max_mapping_bytes;
  const std::string why = install_policy(build_policy(o));
  p.seccomp = why.empty();
  if (!p.seccomp) add_missing(p, "seccomp: " + why);
}

// ---- Cell (the parent's side) --------------------------------------------------

Cell::Cell(const std::function<int(int sock, Violation* record)>& body) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    throw std::runtime_error(errno_text("socketpair"));
  void* page = mmap(nullptr, sizeof(Violation), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) {
    close(sv[0]), close(sv[1]);
    throw std::runtime_error(errno_text("mmap (the cell's record)"));
  }
  record_ = new (page) Violation();
  const pid_t parent = getpid();
  pid_ = fork();
  if (pid_ < 0) {
    const std::string why = errno_text("fork");
    close(sv[0]), close(sv[1]);
    munmap(record_, sizeof(Violation));
    throw std::runtime_error(why);
  }
  if (pid_ == 0) {
    close(sv[0]);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(1);
    _exit(body(sv[1], record_));
  }
  close(sv[1]);
  sock_ = sv[0];
}

Cell::~Cell() {
  kill();
  if (sock_ >= 0) close(sock_);
  munmap(record_, sizeof(Violation));
}

void Cell::kill() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
}

bool Cell::has_ended(double wait_s) {
  if (reaped_) return true;
  if (pid_ <= 0) return false;
  const auto t0 = std::chrono::steady_clock::now();
  for (;;) {
    const pid_t w = waitpid(pid_, &status_, WNOHANG);
    if (w == pid_) {
      reaped_ = true;
      pid_ = -1;
      return true;
    }
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() >= wait_s) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

std::string Cell::ended(std::string& error_name, double wait_s, uint64_t max_mapping_bytes) {
  error_name = "cell";
  if (!has_ended(wait_s)) {
    kill();
    return "the kernel's process stopped answering";
  }
  const int status = status_;
  if (WIFEXITED(status) && WEXITSTATUS(status) == kViolationExit &&
      __atomic_load_n(&record_->magic, __ATOMIC_ACQUIRE) == kViolationMagic) {
    error_name = "forbidden";
    return forbidden_words(record_->nr, static_cast<Forbidden>(record_->category), record_->arg, max_mapping_bytes);
  }
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS) {
    // The policy's trap found SIGSYS blocked (posix_spawn blocks every signal
    // before its clone), so the kernel ended the process before the handler
    // could say which call it was.
    error_name = "forbidden";
    return "your kernel tried to start a program or process, or made another forbidden system call "
           "with its signals blocked (system(), popen() and posix_spawn() do); submissions cannot "
           "start processes";
  }
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* names[] = {"", "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS",
                           "SIGFPE", "SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM"};
    error_name = sig > 0 && sig < 16 ? names[sig] : "signal " + std::to_string(sig);
    if (sig == SIGXFSZ) error_name = "SIGXFSZ";
    if (sig == SIGXCPU) error_name = "SIGXCPU";
    return "";
  }
  error_name = "exit " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  return "the kernel's process ended (" + error_name + ")";
}

}  // namespace cv::sandbox
