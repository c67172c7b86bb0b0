#include "usercode/sandbox/compiler_jail.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "usercode/sandbox/asan.h"

extern char** environ;

namespace cv::sandbox {
namespace {

std::string errno_text(const std::string& call) { return call + ": " + std::strerror(errno); }

bool write_text(const std::string& path, const std::string& text) {
  const int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  close(fd);
  return ok;
}

// New user namespace (root inside, mapped to us) where allowed; then mount,
// network and IPC namespaces (in the user namespace, or as root).
std::string namespaces(std::string& active) {
  const uid_t uid = getuid();
  const gid_t gid = getgid();
  if (unshare(CLONE_NEWUSER) == 0) {
    write_text("/proc/self/setgroups", "deny");
    if (!write_text("/proc/self/uid_map", "0 " + std::to_string(uid) + " 1") ||
        !write_text("/proc/self/gid_map", "0 " + std::to_string(gid) + " 1"))
      return errno_text("writing /proc/self/uid_map");
    active += "user+";
  }
  // No PID namespace: its first child (cc1plus) would be its init, and once
  // it ends the driver could start no other (as, ld).
  if (unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC) != 0)
    return errno_text("unshare(CLONE_NEWNS|CLONE_NEWNET|CLONE_NEWIPC)");
  active += "mount+net+ipc namespaces";
  return "";
}

// `from` (a directory) at `to`, read-only. A symbolic link is copied as one.
std::string bind_read_only(const std::string& from, const std::string& to) {
  struct stat st;
  if (lstat(from.c_str(), &st) != 0) return "";  // not on this system
  if (S_ISLNK(st.st_mode)) {
    char target[PATH_MAX];
    const ssize_t n = readlink(from.c_str(), target, sizeof target - 1);
    if (n < 0) return errno_text("readlink " + from);
    target[n] = '\0';
    return symlink(target, to.c_str()) == 0 ? "" : errno_text("symlink " + to);
  }
  if (S_ISDIR(st.st_mode) ? mkdir(to.c_str(), 0755) != 0 : close(open(to.c_str(), O_CREAT | O_WRONLY, 0644)) != 0)
    return errno_text("creating " + to);
  if (mount(from.c_str(), to.c_str(), nullptr, MS_BIND | MS_REC, nullptr) != 0) return errno_text("bind " + from);
  // A bind's locked flags (nosuid, nodev, noexec of its source) must be kept when remounting.
  struct statvfs vfs {};
  statvfs(from.c_str(), &vfs);
  unsigned long flags = MS_BIND | MS_REMOUNT | MS_RDONLY;
  if (vfs.f_flag & ST_NOSUID) flags |= MS_NOSUID;
  if (vfs.f_flag & ST_NODEV) flags |= MS_NODEV;
  if (vfs.f_flag & ST_NOEXEC) flags |= MS_NOEXEC;
  if (mount(nullptr, to.c_str(), nullptr, flags, nullptr) != 0) return errno_text("read-only " + to);
  return "";
}

// A root holding the toolchain (read-only), /build (the build directory),
// /tmp, /dev/null; made the root; the old one detached.
std::string new_root(const std::string& build_dir) {
  if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return errno_text("making / private");
  const std::string root = build_dir + "/.root";
  mkdir(root.c_str(), 0700);
  if (mount("tmpfs", root.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, "size=256m,mode=0755") != 0)
    return errno_text("tmpfs root");
  for (const char* d : {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt"})
    if (std::string e = bind_read_only(d, root + d); !e.empty()) return e;
  mkdir((root + "/etc").c_str(), 0755);
  for (const char* f : {"/etc/ld.so.cache", "/etc/ld.so.conf"})
    if (std::string e = bind_read_only(f, root + f); !e.empty()) return e;
  mkdir((root + "/dev").c_str(), 0755);
  if (close(open((root + "/dev/null").c_str(), O_CREAT | O_WRONLY, 0666)) != 0 ||
      mount("/dev/null", (root + "/dev/null").c_str(), nullptr, MS_BIND, nullptr) != 0)
    return errno_text("/dev/null");
  mkdir((root + "/tmp").c_str(), 01777);
  mkdir((root + "/build").c_str(), 0755);
  if (mount(build_dir.c_str(), (root + "/build").c_str(), nullptr, MS_BIND, nullptr) != 0)
    return errno_text("bind the build directory");
  mkdir((root + "/.old").c_str(), 0700);
  if (syscall(SYS_pivot_root, root.c_str(), (root + "/.old").c_str()) != 0) return errno_text("pivot_root");
  if (chdir("/") != 0 || umount2("/.old", MNT_DETACH) != 0) return errno_text("detaching the old root");
  rmdir("/.old");
  return chdir("/build") == 0 ? "" : errno_text("chdir /build");
}

bool limit(int resource, rlim_t v) {
  const rlimit r{v, v};
  return setrlimit(resource, &r) == 0;
}

// A path through its links (c++ -> /etc/alternatives/c++ -> /usr/bin/g++-12:
// /etc is not in the new root). A bare name stays for execvp's PATH search.
std::string resolve(const std::string& exe) {
  if (exe.find('/') == std::string::npos) return exe;
  char real[PATH_MAX];
  return realpath(exe.c_str(), real) ? std::string(real) : exe;
}

// Namespaces, the new root and the limits; what was active (or missing) in `report`.
void confine(const std::string& build_dir, std::string& report) {
  std::string active;
  std::string why = namespaces(active);
  if (why.empty()) why = new_root(build_dir);
  const bool limited = limit(RLIMIT_FSIZE, kCompilerOutputBytes) &&
                       (kAddressSanitizer || limit(RLIMIT_AS, kCompilerMemoryBytes)) &&
                       limit(RLIMIT_CPU, kCompilerCpuSeconds) && limit(RLIMIT_CORE, 0);
  prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
  report = why.empty() ? active + ", read-only toolchain, build directory as /build" : "files not confined (" + why + ")";
  report += !limited            ? ", no limits (" + errno_text("setrlimit") + ")"
             : kAddressSanitizer ? ", limits (output 64 MiB, CPU 60 s; memory not limited in an AddressSanitizer build)"
                                 : ", limits (output 64 MiB, memory 4 GiB, CPU 60 s)";
}

}  // namespace

std::string confine_and_exec(const std::string& build_dir, std::vector<std::string> argv, std::string* report) {
  if (argv.empty()) return "no compiler given";
  argv[0] = resolve(argv[0]);
  std::string r;
  confine(build_dir, r);
  if (report) *report = r;
  const bool moved = r.find("/build") != std::string::npos;
  std::vector<char*> args;
  for (std::string& a : argv) {
    if (moved && a.compare(0, build_dir.size(), build_dir) == 0) a = "/build" + a.substr(build_dir.size());
    args.push_back(a.data());
  }
  args.push_back(nullptr);
  if (moved) setenv("TMPDIR", "/tmp", 1);
  std::ofstream(moved ? "/build/.sandbox" : build_dir + "/.sandbox") << "compiler: " << r;
  execvp(args[0], args.data());
  return errno_text("exec " + argv[0]);
}

std::string probe_confinement() {
  char tmpl[] = "/tmp/cudaviz-probe-XXXXXX";
  if (!mkdtemp(tmpl)) return errno_text("mkdtemp");
  int fds[2];
  if (pipe(fds) != 0) return errno_text("pipe");
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    std::string r;
    confine(tmpl, r);
    const bool hidden = access("/etc/passwd", F_OK) != 0 && access("/etc/hostname", F_OK) != 0;
    r += hidden ? "; /etc/passwd not visible" : "; /etc/passwd visible";
    (void)!write(fds[1], r.data(), r.size());
    _exit(0);
  }
  close(fds[1]);
  std::string out;
  char buf[512];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  rmdir((std::string(tmpl) + "/.root").c_str());
  rmdir(tmpl);
  return out.empty() ? "the probe ended without an answer" : out;
}

}  // namespace cv::sandbox
