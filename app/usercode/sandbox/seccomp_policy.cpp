#include "usercode/sandbox/seccomp_policy.h"

#include <linux/audit.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <utility>

namespace cv::sandbox {
namespace {

#if defined(__x86_64__)
constexpr uint32_t kArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr uint32_t kArch = AUDIT_ARCH_AARCH64;
#else
#error "the sandbox's seccomp policy knows x86-64 and aarch64 only"
#endif

constexpr uint32_t kNr = offsetof(seccomp_data, nr);
constexpr uint32_t kArchOff = offsetof(seccomp_data, arch);
constexpr uint32_t arg_lo(int i) { return offsetof(seccomp_data, args) + 8 * i; }
constexpr uint32_t arg_hi(int i) { return arg_lo(i) + 4; }

sock_filter stmt(uint16_t code, uint32_t k) { return BPF_STMT(code, k); }
sock_filter jump(uint16_t code, uint32_t k, uint8_t jt, uint8_t jf) { return BPF_JUMP(code, k, jt, jf); }
sock_filter ret(uint32_t v) { return stmt(BPF_RET | BPF_K, v); }
sock_filter load(uint32_t off) { return stmt(BPF_LD | BPF_W | BPF_ABS, off); }
uint32_t trap(Forbidden f) { return SECCOMP_RET_TRAP | static_cast<uint16_t>(f); }
constexpr uint32_t kAllow = SECCOMP_RET_ALLOW;

// Calls a computing, answering kernel makes (glibc, libstdc++, the emulator's
// threads and fibers, the runner's wire): allowed whatever their arguments.
// None of them names a file, starts a process or reaches another process.
const std::vector<long>& plain_allowed() {
  static const std::vector<long> v = {
      SYS_read, SYS_write, SYS_readv, SYS_writev, SYS_pread64, SYS_pwrite64, SYS_close, SYS_fstat,
      SYS_lseek, SYS_munmap, SYS_mprotect, SYS_madvise, SYS_brk, SYS_rt_sigreturn, SYS_rt_sigprocmask,
      SYS_sigaltstack, SYS_futex, SYS_sched_yield, SYS_sched_getaffinity, SYS_nanosleep,
      SYS_clock_nanosleep, SYS_clock_gettime, SYS_clock_getres, SYS_gettimeofday, SYS_getpid,
      SYS_gettid, SYS_getppid, SYS_getuid, SYS_geteuid, SYS_getgid, SYS_getegid, SYS_exit,
      SYS_exit_group, SYS_set_robust_list, SYS_get_robust_list, SYS_set_tid_address,
      SYS_restart_syscall, SYS_getrandom, SYS_membarrier, SYS_ppoll, SYS_recvmsg, SYS_sendmsg,
      SYS_recvfrom, SYS_sendto, SYS_getrusage, SYS_getrlimit, SYS_uname, SYS_sysinfo, SYS_fcntl,
      SYS_dup, SYS_dup3, SYS_sched_getparam, SYS_sched_getscheduler, SYS_getcpu, SYS_rseq,
      SYS_rt_sigpending, SYS_rt_sigtimedwait, SYS_rt_sigsuspend, SYS_shutdown, SYS_getsockopt,
#ifdef SYS_poll
      SYS_poll, SYS_dup2, SYS_time, SYS_arch_prctl,
#endif
#ifdef SYS_futex_waitv
      SYS_futex_waitv,
#endif
  };
  return v;
}

// Named categories for the sentence; calls not listed are Forbidden::Other.
const std::vector<std::pair<long, Forbidden>>& categories() {
  static const std::vector<std::pair<long, Forbidden>> v = {
#ifdef SYS_open
      {SYS_open, Forbidden::Files}, {SYS_creat, Forbidden::Files}, {SYS_stat, Forbidden::Files},
      {SYS_lstat, Forbidden::Files}, {SYS_access, Forbidden::Files}, {SYS_readlink, Forbidden::Files},
      {SYS_unlink, Forbidden::Files}, {SYS_rename, Forbidden::Files}, {SYS_mkdir, Forbidden::Files},
      {SYS_rmdir, Forbidden::Files}, {SYS_chmod, Forbidden::Files}, {SYS_chown, Forbidden::Files},
      {SYS_link, Forbidden::Files}, {SYS_symlink, Forbidden::Files}, {SYS_fork, Forbidden::Process},
      {SYS_vfork, Forbidden::Process},
#endif
      {SYS_openat, Forbidden::Files}, {SYS_newfstatat, Forbidden::Files}, {SYS_statx, Forbidden::Files},
      {SYS_faccessat, Forbidden::Files}, {SYS_readlinkat, Forbidden::Files},
      {SYS_getdents64, Forbidden::Files}, {SYS_unlinkat, Forbidden::Files},
      {SYS_renameat2, Forbidden::Files}, {SYS_mkdirat, Forbidden::Files}, {SYS_truncate, Forbidden::Files},
      {SYS_ftruncate, Forbidden::Files}, {SYS_chdir, Forbidden::Files}, {SYS_fchdir, Forbidden::Files},
      {SYS_memfd_create, Forbidden::Files}, {SYS_name_to_handle_at, Forbidden::Files},
      {SYS_open_by_handle_at, Forbidden::Files}, {SYS_mknodat, Forbidden::Files},
#ifdef SYS_openat2
      {SYS_openat2, Forbidden::Files}, {SYS_faccessat2, Forbidden::Files},
#endif
      {SYS_clone, Forbidden::Process}, {SYS_execve, Forbidden::Program}, {SYS_execveat, Forbidden::Program},
      {SYS_socket, Forbidden::Network}, {SYS_socketpair, Forbidden::Network}, {SYS_connect, Forbidden::Network},
      {SYS_bind, Forbidden::Network}, {SYS_listen, Forbidden::Network}, {SYS_accept4, Forbidden::Network},
      {SYS_kill, Forbidden::Signal}, {SYS_tkill, Forbidden::Signal}, {SYS_tgkill, Forbidden::Signal},
      {SYS_rt_sigqueueinfo, Forbidden::Signal}, {SYS_rt_tgsigqueueinfo, Forbidden::Signal},
      {SYS_pidfd_send_signal, Forbidden::Signal}, {SYS_rt_sigaction, Forbidden::Signal},
      {SYS_ptrace, Forbidden::OtherProcess}, {SYS_process_vm_readv, Forbidden::OtherProcess},
      {SYS_process_vm_writev, Forbidden::OtherProcess}, {SYS_pidfd_open, Forbidden::OtherProcess},
      {SYS_pidfd_getfd, Forbidden::OtherProcess}, {SYS_kcmp, Forbidden::OtherProcess},
      {SYS_mmap, Forbidden::Memory}, {SYS_mremap, Forbidden::Memory},
      {SYS_prctl, Forbidden::Settings}, {SYS_prlimit64, Forbidden::Settings},
      {SYS_setrlimit, Forbidden::Settings}, {SYS_seccomp, Forbidden::Settings},
      {SYS_unshare, Forbidden::Settings}, {SYS_setns, Forbidden::Settings},
#ifdef SYS_accept
      {SYS_accept, Forbidden::Network},
#endif
  };
  return v;
}

// Appends "if nr == `nr`: `block`" (the block must end in a return).
void rule(std::vector<sock_filter>& p, long nr, const std::vector<sock_filter>& block) {
  p.push_back(load(kNr));
  p.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(nr), 0, static_cast<uint8_t>(block.size())));
  p.insert(p.end(), block.begin(), block.end());
}

// Allow when 64-bit argument `i` equals v, else trap as `f`.
std::vector<sock_filter> arg_equals(int i, uint64_t v, Forbidden f) {
  return {load(arg_hi(i)), jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(v >> 32), 0, 3),
          load(arg_lo(i)), jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(v), 0, 1), ret(kAllow),
          ret(trap(f))};
}

// Allow when 64-bit argument `i` is below `limit` (a multiple of 4 GiB), else trap as Memory.
std::vector<sock_filter> size_below(int i, uint64_t limit) {
  return {load(arg_hi(i)), jump(BPF_JMP | BPF_JGE | BPF_K, static_cast<uint32_t>(limit >> 32), 0, 1),
          ret(trap(Forbidden::Memory)), ret(kAllow)};
}

// The calls allowed with some arguments only.
void argument_rules(std::vector<sock_filter>& p, const PolicyOptions& o) {
  const uint64_t self = static_cast<uint64_t>(o.self);
  // Threads, never processes (glibc's pthread_create passes CLONE_THREAD | CLONE_VM | ...).
  rule(p, SYS_clone, {load(arg_lo(0)), jump(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 3),
                      jump(BPF_JMP | BPF_JSET | BPF_K, CLONE_VM, 0, 2),
                      jump(BPF_JMP | BPF_JSET | BPF_K,
                           CLONE_NEWNS | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC |
                               CLONE_NEWUTS | CLONE_NEWCGROUP,
                           1, 0),
                      ret(kAllow), ret(trap(Forbidden::Process))});
  // clone3's flags are behind a pointer: ENOSYS makes glibc fall back to clone.
  rule(p, SYS_clone3, {ret(SECCOMP_RET_ERRNO | ENOSYS)});
  // Signals to itself only (raise, abort: tgkill(own pid, tid, sig)); SIGSYS's handler stays ours.
  rule(p, SYS_tgkill, arg_equals(0, self, Forbidden::Signal));
  rule(p, SYS_kill, arg_equals(0, self, Forbidden::Signal));
  rule(p, SYS_rt_sigaction, {load(arg_lo(0)), jump(BPF_JMP | BPF_JEQ | BPF_K, SIGSYS, 0, 1),
                             ret(trap(Forbidden::Signal)), ret(kAllow)});
  rule(p, SYS_mmap, size_below(1, o.max_mapping_bytes));
  rule(p, SYS_mremap, size_below(2, o.max_mapping_bytes));
  // Reading limits (getrlimit is prlimit64 with no new limit), never setting them.
  rule(p, SYS_prlimit64, arg_equals(2, 0, Forbidden::Settings));
  // A thread's name, a mapping's name; nothing else of prctl.
  rule(p, SYS_prctl, {load(arg_lo(0)), jump(BPF_JMP | BPF_JEQ | BPF_K, PR_SET_NAME, 3, 0),
                      jump(BPF_JMP | BPF_JEQ | BPF_K, PR_GET_NAME, 2, 0),
                      jump(BPF_JMP | BPF_JEQ | BPF_K, 0x53564d41 /* PR_SET_VMA */, 1, 0),
                      ret(trap(Forbidden::Settings)), ret(kAllow)});
}

}  // namespace

std::vector<sock_filter> build_policy(const PolicyOptions& o) {
  std::vector<sock_filter> p;
  // Another ABI's numbers mean other calls: kill, never interpret.
  p.push_back(load(kArchOff));
  p.push_back(jump(BPF_JMP | BPF_JEQ | BPF_K, kArch, 1, 0));
  p.push_back(ret(trap(Forbidden::ForeignAbi)));
#if defined(__x86_64__)
  p.push_back(load(kNr));
  p.push_back(jump(BPF_JMP | BPF_JGE | BPF_K, 0x40000000 /* __X32_SYSCALL_BIT */, 0, 1));
  p.push_back(ret(trap(Forbidden::ForeignAbi)));
#endif
  argument_rules(p, o);
  for (long nr : plain_allowed()) rule(p, nr, {ret(kAllow)});
  for (const auto& [nr, what] : categories()) rule(p, nr, {ret(trap(what))});
  p.push_back(ret(trap(Forbidden::Other)));
  return p;
}

std::string install_policy(const std::vector<sock_filter>& program) {
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    return std::string("prctl(PR_SET_NO_NEW_PRIVS): ") + std::strerror(errno);
  sock_fprog prog{static_cast<unsigned short>(program.size()), const_cast<sock_filter*>(program.data())};
  if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog) != 0)
    return std::string("seccomp(SECCOMP_SET_MODE_FILTER): ") + std::strerror(errno);
  return "";
}

Forbidden category_of(long nr) {
  for (const auto& [n, what] : categories())
    if (n == nr) return what;
  return Forbidden::Other;
}

std::string syscall_name(long nr) {
  static const std::vector<std::pair<long, const char*>> names = {
#ifdef SYS_open
      {SYS_open, "open"}, {SYS_fork, "fork"}, {SYS_vfork, "vfork"}, {SYS_stat, "stat"},
      {SYS_access, "access"}, {SYS_creat, "creat"},
#endif
      {SYS_openat, "openat"}, {SYS_newfstatat, "newfstatat"}, {SYS_statx, "statx"},
      {SYS_clone, "clone"}, {SYS_execve, "execve"}, {SYS_execveat, "execveat"}, {SYS_socket, "socket"},
      {SYS_connect, "connect"}, {SYS_kill, "kill"}, {SYS_tgkill, "tgkill"}, {SYS_tkill, "tkill"},
      {SYS_ptrace, "ptrace"}, {SYS_process_vm_writev, "process_vm_writev"},
      {SYS_process_vm_readv, "process_vm_readv"}, {SYS_mmap, "mmap"}, {SYS_mremap, "mremap"},
      {SYS_prctl, "prctl"}, {SYS_rt_sigaction, "rt_sigaction"}, {SYS_ioctl, "ioctl"},
      {SYS_memfd_create, "memfd_create"}, {SYS_pidfd_open, "pidfd_open"}, {SYS_pidfd_getfd, "pidfd_getfd"},
      {SYS_mount, "mount"}, {SYS_unshare, "unshare"}, {SYS_setns, "setns"}, {SYS_prlimit64, "prlimit64"},
  };
  for (const auto& [n, name] : names)
    if (n == nr) return name;
  return "";
}

std::string forbidden_words(long nr, Forbidden what, uint64_t arg, uint64_t max_mapping_bytes) {
  const std::string name = syscall_name(nr);
  const std::string call = name.empty() ? "system call " + std::to_string(nr) : name;
  switch (what) {
    case Forbidden::Files:
      return "your kernel tried to open or look at a file (" + call + "); submissions cannot use files";
    case Forbidden::Process:
      return "your kernel tried to start a new process (" + call + "); submissions cannot start processes";
    case Forbidden::Program:
      return "your kernel tried to run a program (" + call + "); submissions cannot run programs";
    case Forbidden::Network:
      return "your kernel tried to use the network or a socket (" + call +
             "); submissions cannot open connections";
    case Forbidden::Signal:
      return "your kernel tried to send a signal to another process or take over a signal (" + call +
             "); submissions cannot";
    case Forbidden::OtherProcess:
      return "your kernel tried to reach another process (" + call + "); submissions cannot";
    case Forbidden::Memory:
      return "your kernel tried to allocate " + std::to_string(arg) + " bytes at once (" + call +
             "); a submission may map at most " + std::to_string(max_mapping_bytes >> 20) + " MiB at once";
    case Forbidden::Settings:
      return "your kernel tried to change its process's settings or limits (" + call +
             "); submissions cannot";
    case Forbidden::ForeignAbi:
      return "your kernel made a system call through another architecture's interface (int 0x80 or "
             "x32, number " + std::to_string(nr) + "); submissions cannot";
    case Forbidden::Other:
      break;
  }
  return "your kernel made a system call submissions may not use (" + call +
         "); a kernel may only compute with its buffers";
}

}  // namespace cv::sandbox
