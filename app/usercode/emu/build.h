#pragma once
// Builds a whole CUDA kernel file into an emulator module (.so) with the host
// C++ compiler: the CPU prelude (prelude/cudaviz_emu.h), then the app's
// prelude headers the caller passes (cudaviz.h, the template's), the
// student's file at its own line numbers, then an epilogue generated from the
// file and its entry points (the thunks of emu.h, the extern __shared__
// arrays). What needs a GPU is an error at the student's line before any
// compiler runs. Explain builds add the recording (-fsanitize=thread's calls,
// the `if` hook) at -O1 with line tables.
#include <memory>
#include <string>
#include <vector>

#include "usercode/emu/source_scan.h"

namespace cv::emu {

constexpr unsigned long long kDynamicSharedCapacity = 64 * 1024;  // extern __shared__ room
constexpr double kBuildLimitS = 60;  // a compiler or linker run (process/run_program.h)

struct TextFile {
  std::string name, text;
};

struct BuildRequest {
  std::string source;
  std::string file_name = "kernel.cu";   // a plain name; diagnostics and explain lines refer to it
  std::vector<std::string> entries;      // the extern "C" kernels to expose
  std::vector<TextFile> headers;         // written beside the source (cudaviz.h, the template's)
  std::vector<std::string> includes;     // of those, #included before line 1, in order
  std::string after;                     // text after the student's file (e.g. a wrapper kernel)
  bool explain = false;
  bool checked = false;                  // -DCV_CHECKED=1: bounds-checked Span accesses
  std::string cxx = "c++";               // the compiler (a path, or a name looked up on PATH)
  std::string tmpdir = "/tmp";
  // An existing private directory to build in (the caller keeps it, e.g.
  // usercode's TempDir); "" -> a new one under tmpdir, held by BuildResult::dir.
  std::string dir;
  // cudaviz-explain, whose `--confine DIR --` step runs the compiler without
  // the file system (sandbox/compiler_jail.h); "" runs it as it is.
  std::string confine_helper;
};

struct BuildDiagnostic {
  int line = 0, column = 0;  // the student's; 0: not at a line of the file
  std::string severity;      // "error", "warning", "note"
  std::string message;
};

class BuildDir;  // the private directory; removed when the last holder goes

struct BuildResult {
  bool ok = false;
  std::vector<BuildDiagnostic> diagnostics;
  std::string error;     // a sentence when the compiler could not run
  std::string log;
  std::string shared_object;
  std::shared_ptr<BuildDir> dir;
  SourceScan scan;
  std::string sandbox;  // what confined the compiler, in words ("" when not asked)
  double ms = 0;
  std::string first_error() const;  // "LINE: error: MESSAGE", "" when ok
};

BuildResult build_module(const BuildRequest& req);

// A private directory under `parent` ("" -> /tmp), removed with the handle.
class BuildDirHandle {
 public:
  explicit BuildDirHandle(const std::string& parent);
  const std::string& path() const;

 private:
  std::shared_ptr<BuildDir> dir_;
};

// The pieces, for callers that run the compiler themselves (usercode/compile/compile_host.cpp).
std::vector<TextFile> emu_headers();  // the CPU prelude files
std::string assemble(const BuildRequest& req, const SourceScan& scan);
std::vector<std::string> compile_flags(bool explain);
// Runs a compiler or linker (argv[0]: a path, or a name looked up on PATH)
// with its output appended to `log_path`, stopped after kBuildLimitS; "" or
// why it could not run (then `status` is meaningless).
// With `confine_helper`, through its `--confine BUILD_DIR --` step; the
// compiler and its children are one process group, killed together.
std::string run_tool(const std::vector<std::string>& argv, const std::string& log_path, int& status,
                     const std::string& confine_helper = "", const std::string& build_dir = "");
// What the confine step said about itself for a build in `build_dir` ("" when none ran).
std::string confinement_report(const std::string& build_dir);
constexpr const char* kConfineReportFile = ".sandbox";
// GCC / Clang log -> diagnostics at the student's lines.
std::vector<BuildDiagnostic> parse_log(const std::string& log, const std::string& file_name);

}  // namespace cv::emu
