#pragma once
// Compiling a student's kernel: NVRTC for the GPU (a cubin for the running
// device's architecture, or PTX and diagnostics for a chosen one on a machine
// without a GPU), the host C++ compiler for the CPU path of per-particle
// templates. The app's prelude (types, accessors, launch-id helper) is passed
// as an in-memory header, and `#line 1` puts the student's first line at 1:
// every Diagnostic's line is the STUDENT's line.
//
// compile() is synchronous and thread-safe; CompileJob runs it off the UI
// thread on the project's Worker (worker/worker.h).
#include <cstdint>
#include <memory>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "config/config.h"
#include "usercode/guard/ptx_guard.h"
#include "usercode/templates/template_registry.h"
#include "worker/worker.h"

namespace cv::usercode {

class TempDir;

// Sources larger than this are refused before any compiler sees them.
constexpr size_t kMaxSourceBytes = 256 * 1024;
// What a compile hands back is bounded too: the log shown (the rest is cut,
// with a note), the diagnostics listed, the PTX and cubin NVRTC made.
constexpr size_t kMaxLogBytes = 64 * 1024;
constexpr size_t kMaxDiagnostics = 200;
constexpr size_t kMaxBinaryBytes = 64u << 20;

enum class Severity { Error, Warning, Note };
const char* to_string(Severity s);  // "error" / "warning" / "note"

struct Diagnostic {
  int line = 0;    // 1-based line of the student's source; 0: not at a line (e.g. a missing entry point)
  int column = 0;  // 1-based, 0 when the compiler gave none
  Severity severity = Severity::Error;
  std::string message;  // without the "file(line): error:" prefix
};

// What the compiled kernel costs (from ptxas for the arch compiled; the runner
// replaces them with cuFuncGetAttribute's values for the loaded function).
struct KernelResources {
  bool known = false;
  int registers = 0;      // per thread
  int shared_bytes = 0;   // static shared memory per block
  int local_bytes = 0;    // local memory per thread (stack frame, spills)
  int spill_bytes = 0;    // spill stores (ptxas)
  int max_threads = 0;    // per block (0 until the runner loaded it)
};

enum class BuildKind { Gpu, Cpu };  // NVRTC cubin / host C++ shared object

struct CompileRequest {
  std::string source;         // the student's file, exactly as in the editor
  std::string template_name;  // "" -> from the source's first line
  BuildKind build = BuildKind::Gpu;
  // NVRTC architecture "sm_XY"; "" -> the running device's, else kDefaultArch.
  std::string arch;
  bool checked = false;       // bounds-checked accessors record the first bad index
  bool guard = false;         // every memory access checked (usercode/guard/, docs/guard.md)
  // CPU target, whole kernels: the emulator's verdict build (every load and
  // store reports, for Schedule::Verdict launches: docs/emulator.md). The
  // runner client makes it itself when a verdict launch first needs it.
  bool verdict = false;
  std::string file_name = "kernel.cu";  // names the file in compiler-style messages
  PathConfig paths;  // the CPU target: PATH, CXX and TMPDIR (config/config.h)
  // Code from the network: NVRTC runs in a child process (nvrtc_child.h),
  // stopped at kIsolatedCompileLimitS and confined. The host compiler is
  // always confined (sandbox/compiler_jail.h).
  bool isolate = false;
};
constexpr const char* kDefaultArch = "sm_75";  // the oldest CUDA 13 supports
// "sm_XY" of the running device, else kDefaultArch (what an empty arch compiles for).
std::string device_arch();

struct CompileResult {
  bool ok = false;                      // compiled with no error
  std::string template_name;
  const TemplateSpec* spec = nullptr;   // the registered template (template_registry.h)
  BuildKind build = BuildKind::Gpu;
  std::string arch;                     // what NVRTC compiled for ("sm_90"), "host" on the CPU path
  bool checked = false;
  std::vector<Diagnostic> diagnostics;  // errors and warnings at the student's lines
  std::string log;                      // the compiler's whole log
  std::string error;                    // a sentence when the compile could not happen
                                        // (NVRTC or the C++ compiler missing, source too big,
                                        // unknown template); then diagnostics may be empty
  std::string ptx;                      // GPU target: the PTX (also on machines without a GPU)
  std::vector<char> cubin;              // GPU target with a real arch: the binary to load
                                        // (the guarded one when the request asked for the guard)
  guard::GuardedPtx guarded;            // the guard's PTX, sites and counts (guarded.ok when used)
  std::string shared_object;            // CPU target: path of the built .so (in `files`)
  std::string file_name;                // the student's file as the compilers named it ("kernel.cu")
  std::shared_ptr<const TempDir> files; // CPU target: the build directory, kept while any copy lives
  std::vector<std::string> entry_points;  // extern "C" names the runner looks up
  // CPU target: the request it was built from (the runner client builds the
  // verdict build from it when a Schedule::Verdict launch first needs one).
  std::shared_ptr<const CompileRequest> request;
  KernelResources resources;
  std::string sandbox;                  // what confined the compiler (host, or NVRTC when isolated), in words
  double compile_ms = 0;                // wall time of the compiler call(s)
  size_t source_lines = 0;
  // The first error as "FILE:LINE: error: MESSAGE" (compiler style), "" when ok.
  std::string first_error() const;
  int first_error_line() const;  // 0 when none
};

CompileResult compile(const CompileRequest& req);
// The template a request names: its template_name, else its source's first line ("" when neither).
std::string template_name_of(const CompileRequest& req);
// The request as compile() reads it (the file's plain name; the CPU's spans
// checked when the guard is on): what CompileResult::request holds.
CompileRequest normalized(const CompileRequest& req);

// The prelude the template's source is compiled after (types, accessors,
// helpers, the entry point's declaration), for the editor's read-only view;
// also what the compiler sees.
std::string prelude_text(const TemplateSpec& t);
// The code appended after the student's (the wrapper kernel of a per-particle
// function), "" for whole kernels.
std::string epilogue_text(const TemplateSpec& t, BuildKind build);

// "NVRTC 13.0", or why it cannot be used (library missing: a sentence).
std::string nvrtc_status();
// The host compiler found for the CPU path ("c++"/$CXX), or "" with why in `why`.
std::string find_host_compiler(const PathConfig& paths, std::string* why = nullptr);

// One compile at a time off the UI thread. start() while busy replaces the
// pending request (the newest edit wins; the running compile finishes first).
// `then`, when given, runs on the same thread once its compile has finished,
// before take() sees the result (the kernel tab loads it into the runner there).
class CompileJob {
 public:
  using Then = std::function<void(const CompileResult&)>;
  CompileJob() = default;
  ~CompileJob();
  CompileJob(const CompileJob&) = delete;
  CompileJob& operator=(const CompileJob&) = delete;
  void start(CompileRequest req, Then then = {});
  bool busy() const;
  // The finished result, once (then nullopt until the next finishes). UI thread.
  std::optional<CompileResult> take();

 private:
  void launch_locked();
  mutable std::mutex mutex_;
  Worker worker_;
  std::optional<CompileRequest> pending_;
  Then pending_then_;
  std::optional<CompileResult> done_;
  bool running_ = false;
};

}  // namespace cv::usercode
