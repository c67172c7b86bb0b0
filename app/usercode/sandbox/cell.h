#pragma once
// A cell: a process forked to run a student's host code (an emulated kernel,
// a per-particle function) where it can compute and answer its parent over
// one socket, and nothing else. Its parent (cudaviz-runner, cudaviz-explain)
// holds everything that matters (the app's socket, files, the right to start
// processes) and never runs student code itself.
//
// In the child, in this order (docs/kernels.md "Code from the network"):
//  1. confine(): every descriptor but the cell's socket closed, 0-2 on
//     /dev/null, SIGKILL when the parent ends, not dumpable, rlimits (address
//     space, no files written, no core, few descriptors), and where the system
//     allows: new user, network and IPC namespaces, and Landlock allowing
//     nothing on the file system but reading the module's .so.
//  2. the caller loads the module: no student code runs (load_time_code.h).
//  3. lock(): the seccomp policy (seccomp_policy.h) on every thread, a SIGSYS
//     handler that records the forbidden call in a page the parent reads.
//  4. run_deferred_init (load_time_code.h): the module's constructors, now
//     under the policy; then the student's code.
// What was active is reported (Protections), never assumed.
#include <sys/types.h>
#include <sys/wait.h>

#include <cstdint>
#include <functional>
#include <string>

namespace cv::sandbox {

// What confine() and lock() achieved in this cell.
struct Protections {
  bool seccomp = false;        // the policy is installed on every thread
  bool user_namespace = false; // unshare(CLONE_NEWUSER)
  bool network_namespace = false;
  bool ipc_namespace = false;
  bool landlock = false;       // file system: read the module only
  bool rlimits = false;        // RLIMIT_AS, FSIZE, CORE, NOFILE set
  uint64_t memory_bytes = 0;   // RLIMIT_AS (the cell's own mappings included)
  std::string missing;         // why a facility is not active, "; "-separated
  // "seccomp, user+net+ipc namespaces, landlock, rlimits (memory 4.1 GiB)"
  // or with what is missing and why.
  std::string describe() const;
};

struct CellLimits {
  uint64_t memory_bytes = 4ull << 30;  // address space beyond what the cell maps at entry
  uint64_t max_mapping_bytes = 4ull << 30;  // one mmap larger than this is a named violation
  int max_descriptors = 64;
};

// The record the child's SIGSYS handler writes (a MAP_SHARED page the parent reads).
struct Violation {
  uint32_t magic = 0;  // kViolationMagic once written
  uint32_t category = 0;
  int64_t nr = 0;
  uint64_t arg = 0;
};
constexpr uint32_t kViolationMagic = 0x43565356;  // "VSVC"
constexpr int kViolationExit = 97;                // the exit status after a violation

// Child side, step 1. `module_path`: the one file Landlock lets it read ("" = none).
Protections confine(int keep_fd, const std::string& module_path, const CellLimits& limits);
// Child side, step 3. Writes `p.seccomp` (or why not into p.missing).
void lock(Protections& p, Violation* record, const CellLimits& limits);

// Parent side: one child process and its socket; SIGKILL + reap on destruction.
class Cell {
 public:
  // Forks; the child runs body(socket, violation page) and _exits with its
  // return value. The parent must be single-threaded (the runner, explain):
  // a fork copies only the calling thread. Throws std::runtime_error.
  explicit Cell(const std::function<int(int sock, Violation* record)>& body);
  ~Cell();
  Cell(const Cell&) = delete;
  Cell& operator=(const Cell&) = delete;
  int socket() const { return sock_; }
  pid_t pid() const { return pid_; }
  // After its socket closed: waits (at most `wait_s`) and says how it ended:
  // the forbidden operation in a sentence (error_name "forbidden"), or the
  // signal ("SIGSEGV") / exit status, with `error_name` set accordingly.
  std::string ended(std::string& error_name, double wait_s, uint64_t max_mapping_bytes);
  // Whether it has ended within `wait_s` (then reaped; ended() tells how).
  bool has_ended(double wait_s);
  // The signal it died of once has_ended(), else 0.
  int signal() const { return reaped_ && WIFSIGNALED(status_) ? WTERMSIG(status_) : 0; }
  void kill();  // SIGKILL and reap

 private:
  pid_t pid_ = -1;
  int status_ = 0;
  bool reaped_ = false;
  int sock_ = -1;
  Violation* record_ = nullptr;  // one shared page
};

}  // namespace cv::sandbox
