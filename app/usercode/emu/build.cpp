#include "usercode/emu/build.h"

#include <sys/wait.h>

#include <csignal>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "emu_prelude.h"
#include "io/atomic_file.h"
#include "process/run_program.h"
#include "usercode/sandbox/compiler_jail.h"
#include "usercode/sandbox/load_time_code.h"

namespace cv::emu {

class BuildDir {
 public:
  explicit BuildDir(const std::string& parent) {
    std::string tmpl = (parent.empty() ? std::string("/tmp") : parent) + "/cudaviz-emu-XXXXXX";
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp in " + parent + ": " + std::strerror(errno));
    path_ = tmpl;
  }
  ~BuildDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

BuildDirHandle::BuildDirHandle(const std::string& parent) : dir_(std::make_shared<BuildDir>(parent)) {}
const std::string& BuildDirHandle::path() const { return dir_->path(); }

namespace {

constexpr const char* kFissionCode = "cudaviz_emu_fission_code.h";  // generated beside kernel.cpp

std::string c_string(const std::string& s) {
  std::string r = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') r += '\\';
    r += c == '\n' ? ' ' : c;
  }
  return r + "\"";
}

std::string epilogue(const BuildRequest& req, const SourceScan& scan, const fission::Split* split) {
  std::string s = "\n#undef if\n" + req.after + "\n#line 1 \"cudaviz_emu_epilogue.h\"\n#include \"cudaviz_emu_thunk.h\"\n";
  // Every `extern __shared__` array is the block's one dynamic shared memory,
  // as on the GPU: aliases of one thread-local block.
  if (!scan.extern_shared.empty())
    s += "extern \"C\" { alignas(16) thread_local unsigned char cv_emu_dynamic_shared[" +
         std::to_string(kDynamicSharedCapacity) + "]; }\n";
  for (const ExternShared& e : scan.extern_shared)
    s += "extern thread_local " + e.type + " " + e.name + "[" + std::to_string(kDynamicSharedCapacity) +
         " / sizeof(" + e.type + ")] __attribute__((alias(\"cv_emu_dynamic_shared\")));\n";
  // The fast path after those definitions: it reaches an extern __shared__
  // array as a pointer into cv_emu_dynamic_shared (fission_emit.cpp,
  // static_declaration), which must be defined here, not through the extern
  // declaration, whose every access calls its thread_local wrapper.
  if (split && !split->code.empty()) s += "#include \"" + std::string(kFissionCode) + "\"\n";
  s += "extern \"C\" const unsigned long long cv_emu_dynamic_shared_capacity = " +
       std::to_string(scan.extern_shared.empty() ? 0 : kDynamicSharedCapacity) + ";\n";
  std::string list;
  for (size_t i = 0; i < req.entries.size(); ++i) {
    const std::string& name = req.entries[i];
    const fission::KernelSplit* k = split && i < split->kernels.size() ? &split->kernels[i] : nullptr;
    // Two copies of the block function: for one-dimensional blocks (y = z = 1,
    // the usual shape) and for any (cudaviz_emu_thunk.h fission_by_shape).
    const std::string fast =
        k && k->ok ? "&cv_emu::fission_by_shape<&cv_fis_" + name + "<true>, &cv_fis_" + name + "<false>>" : "nullptr";
    const std::string note = k ? k->why : split ? split->why : "the fast path was not asked for";
    s += "static void cv_emu_call_" + name + "(void** p) { cv_emu::call(&" + name + ", p); }\n";
    s += "extern \"C\" const cv_emu::Entry cv_emu_entry_" + name + " = {cv_emu::kAbiVersion, \"" + name +
         "\", " + (scan.uses_sync ? "1" : "0") + ", &cv_emu_call_" + name + ", &cv_emu::loop<&" + name +
         ">, 0, " + fast + ", " + c_string(note) + ", " + std::to_string(k ? k->line : 0) + "};\n";
    list += "&cv_emu_entry_" + name + ", ";
  }
  s += "extern \"C\" const cv_emu::Entry* const cv_emu_entries[] = {" + list + "nullptr};\n";
  return s;
}

}  // namespace

std::string run_tool(const std::vector<std::string>& argv_in, const std::string& log_path, int& status,
                     const std::string& confine_helper, const std::string& build_dir) {
  std::vector<std::string> argv = argv_in;
  if (!confine_helper.empty() && !build_dir.empty()) {
    argv = {confine_helper, "--confine", build_dir, "--"};
    argv.insert(argv.end(), argv_in.begin(), argv_in.end());
  }
  status = 0;
  std::string why = run_to_log(argv, log_path, kBuildLimitS, status);  // its own group: a time-out kills cc1plus too
  if (!why.empty() && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)  // no path of this machine in the words
    return "the compiler ran longer than " + std::to_string(static_cast<int>(kBuildLimitS)) + " s and was stopped";
  if (!why.empty()) return why;
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXFSZ)
    return "the compiler's output grew past " + std::to_string(sandbox::kCompilerOutputBytes >> 20) +
           " MiB and it was stopped";
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU)
    return "the compiler used more than " + std::to_string(sandbox::kCompilerCpuSeconds) +
           " s of CPU time and was stopped";
  return "";
}

std::string confinement_report(const std::string& build_dir) {
  return read_file_or_empty(build_dir + "/" + kConfineReportFile);
}

std::vector<std::string> compile_flags_common(bool explain, bool verdict);

std::vector<TextFile> emu_headers() {
  return {{"cudaviz_emu.h", prelude::cudaviz_emu_h},
          {"cudaviz_emu_abi.h", prelude::cudaviz_emu_abi_h},
          {"cudaviz_emu_thunk.h", prelude::cudaviz_emu_thunk_h},
          {"cudaviz_emu_explain.h", prelude::cudaviz_emu_explain_h},
          {"cudaviz_emu_fission.h", prelude::cudaviz_emu_fission_h},
          {"cudaviz_emu_verdict.h", prelude::cudaviz_emu_verdict_h}};
}

std::string assemble(const BuildRequest& req, const SourceScan& scan, const fission::Split* split) {
  std::string s = "#include \"cudaviz_emu.h\"\n";
  for (const std::string& h : req.includes) s += "#include \"" + h + "\"\n";
  if (req.explain) s += "#include \"cudaviz_emu_explain.h\"\n";
  else if (req.verdict) s += "#include \"cudaviz_emu_verdict.h\"\n";
  s += "#line 1 \"" + req.file_name + "\"\n";
  s += req.source;
  s += epilogue(req, scan, split);
  return s;
}

std::vector<std::string> compile_flags(bool explain, bool verdict) {
#if defined(__x86_64__)
  // TLS descriptors: reading threadIdx costs no call per emulated thread (the
  // compiler hoists the lookup out of the thunk's loop).
  std::vector<std::string> f = {"-mtls-dialect=gnu2"};
#else
  std::vector<std::string> f;
#endif
  const std::vector<std::string> rest = compile_flags_common(explain, verdict);
  f.insert(f.end(), rest.begin(), rest.end());
  return f;
}

std::vector<std::string> compile_flags_common(bool explain, bool verdict) {
  if (verdict)  // no line tables, no `if` hook: every access reports, nothing else
    return {"-std=c++17", "-O1", "-fPIC", "-fsanitize=thread", "-DCV_EMU_VERDICT=1", "-fno-math-errno",
            "-w", "-fdiagnostics-color=never"};
  if (explain)
    // Frame pointers: explain walks from an access to the calls around it.
    // clang drops a load's call before a store to the same place (`x += 1`
    // would read as a write only) unless told not to; GCC retries without it.
    return {"-std=c++17", "-O1", "-g", "-fPIC", "-fsanitize=thread", "-fno-omit-frame-pointer", "-DCV_EMU_EXPLAIN=1",
            "-fno-math-errno", "-w", "-fdiagnostics-color=never", "-fmax-errors=50", "-mllvm",
            "-tsan-instrument-read-before-write"};
  // No semantic interposition: the thunk's loop may inline the kernel (an exported function).
  // -O3 -march=native: the fast path's thread loops vectorise and split (reduce
  // 4x, sum3 4.5x faster than at -O2). The optimiser may then move a raw
  // pointer's faulting load before its thread's index store or into the next
  // line's code: a signal on the fast path is run again on the fibers to be
  // named (RunnerClient::launch_locked). -ffp-contract=off: no FMA the fibers'
  // code would not have, so both paths give the same bits.
  // -falign-loops=32: without it a kernel's time moved 30% with unrelated edits.
  // -Wno-unknown-pragmas: CUDA's own (`#pragma unroll`) are not GCC's; NVRTC,
  // which knows them, warns on the GPU path for one that is really unknown.
  return {"-std=c++17", "-O3", "-march=native", "-ffp-contract=off", "-falign-loops=32", "-fPIC",
          "-fno-semantic-interposition", "-fno-math-errno",
          "-fno-trapping-math", "-Wall", "-Wextra",
          "-Wno-unused-parameter", "-Wno-unknown-pragmas", "-fdiagnostics-color=never", "-fmax-errors=50"};
}

std::vector<BuildDiagnostic> parse_log(const std::string& log, const std::string& file) {
  std::vector<BuildDiagnostic> out;
  static const std::regex re(R"(^([^:\n]+):(\d+):(?:(\d+):)?\s*(fatal error|error|warning|note):\s*(.*)$)");
  std::istringstream in(log);
  for (std::string l; std::getline(in, l);) {
    std::smatch m;
    if (!std::regex_match(l, m, re)) continue;
    std::string f = m[1].str();
    const size_t slash = f.rfind('/');
    if (slash != std::string::npos) f = f.substr(slash + 1);
    BuildDiagnostic d;
    d.severity = m[4].str() == "fatal error" ? "error" : m[4].str();
    d.message = m[5].str();
    if (f == file) {
      d.line = std::stoi(m[2].str());
      d.column = m[3].matched ? std::stoi(m[3].str()) : 0;
    } else {
      if (d.severity == "note") continue;  // notes in the prelude: where a declaration is
      d.message += " (in the app's " + f + ", line " + m[2].str() + ")";
    }
    out.push_back(std::move(d));
  }
  return out;
}

std::string BuildResult::first_error() const {
  for (const BuildDiagnostic& d : diagnostics)
    if (d.severity == "error") return std::to_string(d.line) + ": error: " + d.message;
  if (!ok && !error.empty()) return "0: error: " + error;
  return "";
}

namespace {

// Options of compile_flags some compilers refuse, each dropped (with its
// argument) for a second run when the compiler's log names it.
struct Refusable {
  const char* named;  // in the compiler's words
  const char* flag;
  long words;  // the flag and its arguments
};
constexpr Refusable kRefusable[] = {
    {"-mtls-dialect", "-mtls-dialect=gnu2", 1},  // clang before 19: no TLS descriptors
    {"-march", "-march=native", 1},  // a compiler that cannot read this CPU (GCC on Arm reads /proc/cpuinfo)
    {"-mllvm", "-mllvm", 2},         // explain on GCC: clang's option (compile_flags_common)
};

// One compiler run (and, for explain or a verdict build, the link without the
// sanitizer's runtime); "" or why the compiler could not run.
std::string compile_once(const BuildRequest& req, const std::string& dir, int& status) {
  const std::string src = dir + "/kernel.cpp", obj = dir + "/kernel.o", so = dir + "/kernel.so",
                    log = dir + "/compile.log";
  std::ofstream(log, std::ios::trunc).flush();
  std::vector<std::string> argv = {req.cxx};
  for (const std::string& f : compile_flags(req.explain, req.verdict)) argv.push_back(f);
  const bool unlinked = req.explain || req.verdict;  // instrumented: linked without the sanitizer's runtime
  // A line table, so a checked s[i] the kernel got wrong is placed at its line.
  if (req.checked) argv.insert(argv.end(), {"-DCV_CHECKED=1", "-g1"});
  argv.insert(argv.end(), {"-I", dir});
  if (unlinked) argv.insert(argv.end(), {"-c", "-o", obj, src});
  else argv.insert(argv.end(), {"-shared", "-o", so, src});
  std::string why = run_tool(argv, log, status, req.confine_helper, dir);
  // Options some compilers refuse (kRefusable): where the log names one, the same again without it.
  for (const Refusable& r : kRefusable) {
    if (!why.empty() || !WIFEXITED(status) || WEXITSTATUS(status) == 0) break;
    const auto at = std::find(argv.begin(), argv.end(), std::string(r.flag));
    if (argv.end() - at < r.words || read_file_or_empty(log).find(r.named) == std::string::npos) continue;
    argv.erase(at, at + r.words);
    std::ofstream(log, std::ios::trunc).flush();
    why = run_tool(argv, log, status, req.confine_helper, dir);
  }
  if (why.empty() && unlinked && WIFEXITED(status) && WEXITSTATUS(status) == 0)
    why = run_tool({req.cxx, "-shared", "-o", so, obj}, log, status, req.confine_helper, dir);
  return why;
}

bool failed(int status) { return !WIFEXITED(status) || WEXITSTATUS(status) != 0; }

std::string write_and_compile(const BuildRequest& req, const SourceScan& scan, const fission::Split* split,
                              const std::string& dir, int& status) {
  try {
    write_file(dir + "/kernel.cpp", assemble(req, scan, split));
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return compile_once(req, dir, status);
}

// The fast path's functions (fission.h) beside kernel.cpp; the split says per kernel.
fission::Split fast_path(const BuildRequest& req, const SourceScan& scan, const std::string& dir) {
  fission::Split split = fission::split_kernels(assemble(req, scan), dir, req.entries, req.file_name, req.checked);
  if (split.code.empty()) return split;
  try {
    write_file(dir + "/" + kFissionCode, "#pragma GCC system_header\n#include \"cudaviz_emu_fission.h\"\n" + split.code);
  } catch (const std::runtime_error& e) {
    split.why = e.what();
    split.code.clear();
    for (fission::KernelSplit& k : split.kernels) k.ok = false, k.why = split.why;
  }
  return split;
}

}  // namespace

BuildResult build_module(const BuildRequest& req) {
  const auto t0 = std::chrono::steady_clock::now();
  BuildResult r;
  auto finish = [&]() -> BuildResult {
    r.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    r.ok = r.error.empty() && !r.shared_object.empty();
    for (const BuildDiagnostic& d : r.diagnostics) r.ok = r.ok && d.severity != "error";
    return r;
  };
  r.scan = scan_source(req.source);
  for (const GpuOnlyUse& g : r.scan.gpu_only) r.diagnostics.push_back({g.line, 0, "error", g.message});
  if (!r.scan.gpu_only.empty()) return finish();
  if (req.dir.empty()) {
    try {
      r.dir = std::make_shared<BuildDir>(req.tmpdir);
    } catch (const std::exception& e) {
      r.error = e.what();
      return finish();
    }
  }
  const std::string dir = req.dir.empty() ? r.dir->path() : req.dir;
  std::vector<TextFile> files = emu_headers();
  files.insert(files.end(), req.headers.begin(), req.headers.end());
  try {
    for (const TextFile& h : files) write_file(dir + "/" + h.name, h.text);
  } catch (const std::runtime_error& e) {
    r.error = e.what();  // "cannot write '<path>': <why>"
    return finish();
  }
  if (req.fast && !req.explain && !req.verdict) r.fission = fast_path(req, r.scan, dir);
  else r.fission.why = req.explain   ? "explain runs kernels as fibers"
                       : req.verdict ? "a verdict build runs kernels as fibers"
                                     : "the fast path was not asked for";
  const bool fast = !r.fission.code.empty();
  int status = 0;
  std::string why = write_and_compile(req, r.scan, &r.fission, dir, status);
  if (why.empty() && fast && failed(status)) {
    // The fast path's code did not compile (a case its rewrite gets wrong):
    // without it, so the student sees their own file's errors, if any.
    const std::string log = read_file_or_empty(dir + "/compile.log");
    const std::vector<BuildDiagnostic> first = parse_log(log, req.file_name);
    const std::string what = first.empty() ? log.substr(0, 300) : first.front().message;
    for (fission::KernelSplit& k : r.fission.kernels)
      if (k.ok) k.ok = false, k.why = "the fast path's code did not compile (" + what + ")";
    r.fission.code.clear();
    why = write_and_compile(req, r.scan, &r.fission, dir, status);
  }
  r.log = read_file_or_empty(dir + "/compile.log");
  r.sandbox = confinement_report(dir);
  if (!why.empty()) {
    r.error = why;
    return finish();
  }
  std::vector<BuildDiagnostic> d = parse_log(r.log, req.file_name);
  r.diagnostics.insert(r.diagnostics.end(), d.begin(), d.end());
  if (failed(status)) {
    bool any = false;
    for (const BuildDiagnostic& x : r.diagnostics) any = any || x.severity == "error";
    if (!any) r.error = req.cxx + " failed: " + r.log.substr(0, 400);
    return finish();
  }
  // Its constructors run later, in the cell, under the sandbox's policy.
  const std::string so = dir + "/kernel.so";
  if (std::string refused = sandbox::defer_load_time_code(so); !refused.empty()) {
    r.diagnostics.push_back({0, 0, "error", refused});
    return finish();
  }
  r.shared_object = so;
  return finish();
}

}  // namespace cv::emu
