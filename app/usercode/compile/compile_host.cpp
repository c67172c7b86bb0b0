// The CPU back end of compile(): the per-particle function built as a shared
// object by the host C++ compiler the machine has, in a private directory.
// The runner loads it (never the app), so a crash in it ends only the runner.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "usercode/compile/compile_log.h"
#include "usercode/compile/compile_parts.h"
#include "usercode/emu/build.h"
#include "usercode/compile/temp_dir.h"
#include "io/atomic_file.h"
#include "process/find_program.h"
#include "process/run_program.h"
#include "usercode/sandbox/load_time_code.h"

namespace cv::usercode {
namespace {

bool executable_on_path(const std::string& name, const PathConfig& paths, std::string& found) {
  if (name.find('/') != std::string::npos) {
    if (access(name.c_str(), X_OK) == 0) return found = name, true;
    return false;
  }
  const std::optional<std::string> full = find_on_path(name, paths.path.value_or("/usr/bin:/bin").c_str());
  if (full) found = *full;
  return full.has_value();
}

// cudaviz-explain's `--confine` step runs the compiler without the file system
// (sandbox/compiler_jail.h); "" when it is missing (then the compiler runs as it is).
std::string confine_helper() {
#ifndef CUDAVIZ_EXPLAIN_PATH
#define CUDAVIZ_EXPLAIN_PATH ""
#endif
  return find_helper("cudaviz-explain", "", CUDAVIZ_EXPLAIN_PATH);
}

}  // namespace

std::string find_host_compiler(const PathConfig& paths, std::string* why) {
  std::string found;
  if (const std::string& cxx = paths.cxx; !cxx.empty()) {
    if (executable_on_path(cxx, paths, found)) return found;
    if (why) *why = "$CXX (" + cxx + ") is not an executable";
    return "";
  }
  for (const char* name : {"c++", "g++", "clang++"})
    if (executable_on_path(name, paths, found)) return found;
  if (why)
    *why = "no C++ compiler was found (c++, g++ or clang++ on PATH, or $CXX): the CPU path "
           "builds your particle function with it; install one (e.g. the g++ package)";
  return "";
}

namespace detail {

void compile_host(const CompileRequest& req, CompileResult& r) {
  r.arch = "host";
  std::string why;
  const std::string cxx = find_host_compiler(req.paths, &why);
  if (cxx.empty()) {
    r.error = why;
    return;
  }
  std::shared_ptr<TempDir> dir;
  try {
    dir = std::make_shared<TempDir>(req.paths.tmpdir);
  } catch (const std::exception& e) {
    r.error = e.what();
    return;
  }
  if (r.spec->cpu_form == CpuForm::Emulated) {
    // A whole kernel: the emulator's build (emu/build.h) in this directory,
    // its CPU prelude first, then the app's, the file, the thunks.
    emu::BuildRequest q;
    q.source = req.source;
    q.file_name = req.file_name;
    q.entries = entry_points(*r.spec, BuildKind::Cpu);
    for (const Header& h : prelude_headers(*r.spec)) q.headers.push_back({h.name, h.text});
    q.includes = {"cudaviz.h", "cudaviz_" + r.spec->name + ".h"};
    q.checked = req.checked;
    q.verdict = req.verdict;
    q.cxx = cxx;
    q.tmpdir = req.paths.tmpdir.empty() ? "/tmp" : req.paths.tmpdir;
    q.dir = dir->path();
    q.confine_helper = confine_helper();
    const emu::BuildResult b = emu::build_module(q);
    r.log = b.log;
    r.sandbox = b.sandbox;
    for (const emu::BuildDiagnostic& d : b.diagnostics) {
      Diagnostic x;
      x.line = d.line;
      x.column = d.column;
      x.severity = d.severity == "error" ? Severity::Error
                   : d.severity == "warning" ? Severity::Warning
                                             : Severity::Note;
      x.message = d.message;
      r.diagnostics.push_back(std::move(x));
    }
    if (!b.ok) {
      if (std::none_of(r.diagnostics.begin(), r.diagnostics.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::Error; }))
        r.error = b.error.empty() ? cxx + " failed: " + b.log.substr(0, 400) : b.error;
      return;
    }
    r.shared_object = b.shared_object;
    r.files = dir;  // why the fast path is off, if it is, comes back in the runner's reply (fast_path_off)
    return;
  }
  const std::string src = dir->path() + "/kernel.cpp", so = dir->path() + "/kernel.so",
                    log_path = dir->path() + "/compile.log";
  try {
    for (const Header& h : prelude_headers(*r.spec)) write_file(dir->path() + "/" + h.name, h.text);
    write_file(src, assemble(req.source, req.file_name, *r.spec, BuildKind::Cpu));
  } catch (const std::runtime_error& e) {
    r.error = e.what();  // "cannot write '<path>': <why>"
    return;
  }
  std::vector<std::string> argv = {cxx, "-std=c++17", "-O2", "-fPIC", "-shared",
                                   "-fno-math-errno", "-fno-trapping-math", "-Wall", "-Wextra",
                                   "-Wno-unused-parameter", "-Wno-unknown-pragmas",  // CUDA's (#pragma unroll)
                                   "-fdiagnostics-color=never", "-fmax-errors=50",
                                   // An undefined function (a particle_step of other
                                   // parameters) fails here, at its name, not at load.
                                   "-Wl,-z,defs",
                                   "-I", dir->path(), "-o", so, src};
  if (req.checked) argv.insert(argv.begin() + 1, {"-DCV_CHECKED=1", "-g1"});  // -g1: a checked s[i]'s line
  int status = 0;
  if (std::string e = emu::run_tool(argv, log_path, status, confine_helper(), dir->path()); !e.empty()) {
    r.error = e;
    return;
  }
  r.log = read_file_or_empty(log_path);
  r.sandbox = emu::confinement_report(dir->path());
  r.diagnostics = parse_host_log(r.log, req.file_name);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    if (std::none_of(r.diagnostics.begin(), r.diagnostics.end(),
                     [](const Diagnostic& d) { return d.severity == Severity::Error; }))
      r.error = cxx + " failed (" +
                (WIFEXITED(status) ? "exit " + std::to_string(WEXITSTATUS(status))
                                   : "signal " + std::to_string(WTERMSIG(status))) +
                "): " + r.log.substr(0, 400);
    return;
  }
  // Its constructors run later, in the runner's cell, under the sandbox's policy.
  if (std::string refused = sandbox::defer_load_time_code(so); !refused.empty()) {
    r.diagnostics.push_back({0, 0, Severity::Error, refused});
    return;
  }
  r.shared_object = so;
  r.files = dir;
}

}  // namespace detail
}  // namespace cv::usercode
