#pragma once
// The system calls a process running a student's host code (a cell:
// cell.h) may make, as a seccomp-bpf program written by hand (no library:
// the allow list is short, and every architecture's numbers come from the C
// library's <sys/syscall.h>). What a kernel needs to compute and answer over
// the sockets it already holds is allowed: memory (single mappings up to a
// limit), threads (clone with CLONE_THREAD only), futexes, clocks, signals to
// itself, reading and writing its own descriptors. Everything else (files,
// processes, programs, the network, other processes' memory or signals,
// ioctl, mount, ...) traps: the cell's SIGSYS handler records which call and
// ends the process, so the runner can name the forbidden operation. Calls
// through another architecture's ABI (int 0x80, x32) trap before any number
// is interpreted.
#include <linux/filter.h>
#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

namespace cv::sandbox {

// What a trapped call was, for the sentence to the student (SECCOMP_RET_DATA).
enum class Forbidden : uint16_t {
  Other = 1,
  Files = 2,
  Process = 3,
  Program = 4,
  Network = 5,
  Signal = 6,
  OtherProcess = 7,
  Memory = 8,
  Settings = 9,
  ForeignAbi = 10,  // int 0x80 (i386 numbers) or x32 from 64-bit code
};

struct PolicyOptions {
  pid_t self = 0;                          // the cell's pid: tgkill/kill to it are allowed
  uint64_t max_mapping_bytes = 4ull << 30;  // one mmap/mremap larger than this traps (a multiple of 4 GiB)
};

// The BPF program (seccomp_data in, SECCOMP_RET_* out).
std::vector<sock_filter> build_policy(const PolicyOptions& o);

// Installs it for every thread of the process (SECCOMP_FILTER_FLAG_TSYNC),
// with PR_SET_NO_NEW_PRIVS first. "" or why not (the call and errno).
std::string install_policy(const std::vector<sock_filter>& program);

// The category of a call number as the policy traps it (Forbidden::Other for
// calls it does not list by name), and its name where known ("openat").
Forbidden category_of(long nr);
std::string syscall_name(long nr);

// The sentence to the student: "your kernel tried to open a file (openat);
// submissions cannot use files". `arg` is the call's size argument for Memory.
std::string forbidden_words(long nr, Forbidden what, uint64_t arg, uint64_t max_mapping_bytes);

}  // namespace cv::sandbox
