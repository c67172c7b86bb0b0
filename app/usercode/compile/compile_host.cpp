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
#include <fstream>
#include <sstream>

#include "usercode/compile/compile_log.h"
#include "usercode/compile/compile_parts.h"
#include "usercode/emu/build.h"
#include "usercode/compile/temp_dir.h"

namespace cv::usercode {
namespace {

bool executable_on_path(const std::string& name, const PathConfig& paths, std::string& found) {
  if (name.find('/') != std::string::npos) {
    if (access(name.c_str(), X_OK) == 0) return found = name, true;
    return false;
  }
  std::istringstream dirs(paths.path.value_or("/usr/bin:/bin"));
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const std::string full = (dir.empty() ? "." : dir) + "/" + name;
    if (access(full.c_str(), X_OK) == 0) return found = full, true;
  }
  return false;
}

bool write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  return static_cast<bool>(out);
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
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
    q.entries = entry_points(*r.spec, Target::Cpu);
    for (const Header& h : prelude_headers(*r.spec)) q.headers.push_back({h.name, h.text});
    q.includes = {"cudaviz.h", "cudaviz_" + r.spec->name + ".h"};
    q.checked = req.checked;
    q.verdict = req.verdict;
    q.cxx = cxx;
    q.tmpdir = req.paths.tmpdir.empty() ? "/tmp" : req.paths.tmpdir;
    q.dir = dir->path();
    const emu::BuildResult b = emu::build_module(q);
    r.log = b.log;
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
    r.files = dir;
    for (const emu::fission::KernelSplit& k : b.fission.kernels)
      if (!k.ok && !req.verdict) r.fast_path_note = k.why.empty() ? b.fission.why : k.why;
    return;
  }
  for (const Header& h : prelude_headers(*r.spec))
    if (!write_file(dir->path() + "/" + h.name, h.text)) {
      r.error = "cannot write " + dir->path() + "/" + h.name;
      return;
    }
  const std::string src = dir->path() + "/kernel.cpp", so = dir->path() + "/kernel.so",
                    log_path = dir->path() + "/compile.log";
  if (!write_file(src, assemble(req.source, req.file_name, *r.spec, Target::Cpu))) {
    r.error = "cannot write " + src;
    return;
  }
  std::vector<std::string> argv = {cxx, "-std=c++17", "-O2", "-fPIC", "-shared",
                                   "-fno-math-errno", "-fno-trapping-math", "-Wall", "-Wextra",
                                   "-Wno-unused-parameter", "-fdiagnostics-color=never",
                                   "-I", dir->path(), "-o", so, src};
  if (req.checked) argv.insert(argv.begin() + 1, "-DCV_CHECKED=1");
  int status = 0;
  if (std::string e = emu::run_tool(argv, log_path, status); !e.empty()) {
    r.error = e;
    return;
  }
  r.log = read_all(log_path);
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
  r.shared_object = so;
  r.files = dir;
}

}  // namespace detail
}  // namespace cv::usercode
