#pragma once
// The CPU emulator of whole CUDA kernels (docs/emulator.md). A kernel built
// by build_module() (the host C++ compiler against the CPU prelude) is loaded
// here and launched like cuLaunchKernel: a shape, `void** params` (one
// pointer per argument; a cv::Span is {T* data; unsigned long long size;}),
// and the table of the launch's buffers. Blocks spread over the thread pool;
// a block's threads run as fibers when the kernel names a barrier or a warp
// intrinsic, else as a plain loop. A barrier some threads never reach, a
// warp operation whose mask names absent or exited lanes, __trap() and
// assert() end the launch with a sentence instead of hanging.
#include <atomic>
#include <memory>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "usercode/emu/explain_recorder.h"
#include "usercode/emu/explain_types.h"
#include "usercode/emu/shared_names.h"
#include "usercode/emu/prelude/cudaviz_emu_abi.h"
#include "usercode/emu/tls_symbols.h"
#include "usercode/wire/launch_abi.h"
#include "usercode/wire/progress_page.h"

namespace cv::emu {

// The size of a checked build's cv_fault (the prelude's cv::FaultRecord, which
// this library does not include; the runner asserts the two agree).
constexpr size_t kFaultRecordBytes = 56;

class Module;

// One entry point of a loaded module.
struct Kernel {
  const cv_emu::Entry* entry = nullptr;
  const Module* module = nullptr;
  std::string name;
};

// A host-compiled kernel module (.so), dlopened for as long as this lives.
class Module {
 public:
  // Throws std::runtime_error with dlopen's words.
  explicit Module(const std::string& path, bool explain_build = false,
                  const std::string& student_file = "kernel.cu");
  ~Module();
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;
  // Throws std::runtime_error when the module has no such entry point.
  Kernel kernel(const std::string& name) const;
  std::vector<std::string> entry_names() const;

  cv_emu::Ctx* (*ctx)() = nullptr;  // the calling thread's context in the module
  unsigned long long dynamic_shared_capacity = 0;
  bool explain_build = false;
  bool verdict_build = false;  // its loads and stores call the emulator (BuildRequest::verdict)
  std::string path, student_file;
  // Explain and verdict builds: the module's thread-local variables (its __shared__ ones),
  // the context's offset among them and the TLS segment's size.
  std::vector<TlsSymbol> tls;
  uint64_t ctx_tls_offset = 0, tls_bytes = 0;
  TextRange text;  // its code, where explain walks an access's calls
  void* handle() const { return h_; }
  void* fault_record() const { return fault_; }  // cv_fault (checked builds), kFaultRecordBytes

 private:
  void* h_ = nullptr;
  void* fault_ = nullptr;
};

struct Options {
  bool explain = false;                 // record accesses and branches (needs an explain build)
  unsigned long long explain_block = 0; // the block listed in full (linear, x fastest)
  unsigned explain_warp = 0;            // its warp drawn in the memory view
  std::vector<UnrolledLoop> unrolled;   // the GPU compiler's unrolled loops (explain_types.h)
  unsigned long long max_recorded_threads = 65536;  // races are checked over these
  size_t max_events = 4u << 20;         // recording stops (truncated) beyond this (40 B each)
  size_t max_print_lines = 64;
  bool force_fibers = false;            // every kernel as fibers, never the fast path (tests, bench)
  // A correctness check's schedule (docs/emulator.md, "Races on the CPU"):
  // fibers, switched at every store to shared or writable memory, several
  // blocks of a worker interleaved. Needs a module built with
  // BuildRequest::verdict (its stores call the emulator).
  bool verdict = false;
  uint64_t verdict_seed = 0;            // its shuffles (0: a fresh seed each launch)
  size_t stack_bytes = 128 * 1024;      // per emulated thread
  // Where to count finished blocks as they finish (another process may watch:
  // usercode/wire/progress_page.h); null: nowhere.
  usercode::BlockCount* blocks_done = nullptr;
  // Explain: code addresses -> the student's lines, innermost first
  // (pc_lines.h), and shared variables' shapes (shared_names.h). Unset: run
  // here (addr2line, readelf); a sandboxed cell, which may not start
  // programs, asks its parent.
  std::function<std::map<uint64_t, std::vector<int>>(const std::vector<uint64_t>&)> resolve_frames;
  std::function<std::map<std::string, ArrayShape>(const std::set<std::string>&)> variable_shapes;
  std::string source;                   // explain: the student's file (names the aliased extern __shared__ arrays)
};

struct Report {
  bool ok = true;
  std::string error;        // a sentence naming the line, the threads and the block
  std::string error_kind;   // "barrier", "warp", "trap", "launch"
  int error_line = 0;
  std::vector<std::string> printf_lines;  // the first Options::max_print_lines lines
  bool printf_truncated = false;
  double ms = 0;
  bool fibers = false;      // the blocks ran as fibers
  std::string path;         // "fission" (the fast path), "fibers" or "loop"
  std::string fission_note; // when not the fast path: why the kernel has none
  int fission_line = 0;     // the student's line that reason is about
  unsigned long long blocks = 0, threads = 0;
  std::optional<Explain> explain;
};

// Runs the launch to the end (or the first error). Throws std::invalid_argument
// for a launch that cannot be (zero or > 1024 threads a block, dynamic shared
// memory beyond the module's room, explain without an explain build, a
// verdict schedule without a verdict build).
Report run(const Kernel& k, const usercode::LaunchShape& shape, void** params,
           const std::vector<usercode::BufferView>& buffers, const Options& opt);

// The emulated thread the calling worker thread is running now (false: none).
// Reads only the thread's own state: a signal handler may call it. `batched`:
// the worker runs the fast path or plain loops, where the optimiser may have
// moved a thread's access before the store of its index (or into the next
// line's code): the thread and line are then the nearest known, not certain.
bool current_thread(cv_emu::Dim& block, cv_emu::Dim& thread, bool& batched);

}  // namespace cv::emu
