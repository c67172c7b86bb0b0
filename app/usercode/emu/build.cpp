#include "usercode/emu/build.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "emu_prelude.h"

extern char** environ;

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
  if (split && !split->code.empty()) s += "#include \"" + std::string(kFissionCode) + "\"\n";
  for (const ExternShared& e : scan.extern_shared)
    s += "thread_local " + e.type + " " + e.name + "[(" + std::to_string(kDynamicSharedCapacity) +
         " + sizeof(" + e.type + ") - 1) / sizeof(" + e.type + ")] __attribute__((aligned(16)));\n";
  s += "extern \"C\" const unsigned long long cv_emu_dynamic_shared_capacity = " +
       std::to_string(scan.extern_shared.empty() ? 0 : kDynamicSharedCapacity) + ";\n";
  std::string list;
  for (size_t i = 0; i < req.entries.size(); ++i) {
    const std::string& name = req.entries[i];
    const fission::KernelSplit* k = split && i < split->kernels.size() ? &split->kernels[i] : nullptr;
    const std::string fast = k && k->ok ? "&cv_emu::fission<&cv_fis_" + name + ">" : "nullptr";
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

std::string run_tool(const std::vector<std::string>& argv, const std::string& log_path, int& status) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int e = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (e != 0) return "cannot run " + argv[0] + ": " + std::strerror(e);
  const auto t0 = std::chrono::steady_clock::now();
  for (;;) {
    const pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) return "";
    if (w < 0 && errno != EINTR) return std::string("waitpid: ") + std::strerror(errno);
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > kBuildLimitS) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return argv[0] + " ran longer than " + std::to_string(static_cast<int>(kBuildLimitS)) + " s and was stopped";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

std::vector<std::string> compile_flags_common(bool explain, bool verdict);

std::vector<TextFile> emu_headers() {
  return {{"cudaviz_emu.h", prelude::cudaviz_emu_h},
          {"cudaviz_emu_abi.h", prelude::cudaviz_emu_abi_h},
          {"cudaviz_emu_thunk.h", prelude::cudaviz_emu_thunk_h},
          {"cudaviz_emu_fission.h", prelude::cudaviz_emu_fission_h},
          {"cudaviz_emu_verdict.h", prelude::cudaviz_emu_verdict_h},
          {"cudaviz_emu_explain.h", prelude::cudaviz_emu_explain_h}};
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
    return {"-std=c++17", "-O1", "-g", "-fPIC", "-fsanitize=thread", "-DCV_EMU_EXPLAIN=1", "-fno-math-errno",
            "-w", "-fdiagnostics-color=never"};
  // No semantic interposition: the thunk's loop may inline the kernel (an exported function).
  return {"-std=c++17", "-O2", "-fPIC", "-fno-semantic-interposition", "-fno-math-errno", "-fno-trapping-math", "-Wall", "-Wextra",
          "-Wno-unused-parameter", "-fdiagnostics-color=never"};
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

// One compiler run (and, for explain, the link without the sanitizer's
// runtime); "" or why the compiler could not run.
std::string compile_once(const BuildRequest& req, const std::string& dir, int& status) {
  const std::string src = dir + "/kernel.cpp", obj = dir + "/kernel.o", so = dir + "/kernel.so",
                    log = dir + "/compile.log";
  std::ofstream(log, std::ios::trunc).flush();
  std::vector<std::string> argv = {req.cxx};
  for (const std::string& f : compile_flags(req.explain, req.verdict)) argv.push_back(f);
  const bool unlinked = req.explain || req.verdict;  // instrumented: linked without the sanitizer's runtime
  if (req.checked) argv.push_back("-DCV_CHECKED=1");
  argv.insert(argv.end(), {"-I", dir});
  if (unlinked) argv.insert(argv.end(), {"-c", "-o", obj, src});
  else argv.insert(argv.end(), {"-shared", "-o", so, src});
  std::string why = run_tool(argv, log, status);
  // A compiler without TLS descriptors (clang before 19): the same without them.
  if (why.empty() && WIFEXITED(status) && WEXITSTATUS(status) != 0 &&
      read_all(log).find("-mtls-dialect") != std::string::npos) {
    argv.erase(std::remove(argv.begin(), argv.end(), std::string("-mtls-dialect=gnu2")), argv.end());
    std::ofstream(log, std::ios::trunc).flush();
    why = run_tool(argv, log, status);
  }
  if (why.empty() && unlinked && WIFEXITED(status) && WEXITSTATUS(status) == 0)
    why = run_tool({req.cxx, "-shared", "-o", so, obj}, log, status);
  return why;
}

bool failed(int status) { return !WIFEXITED(status) || WEXITSTATUS(status) != 0; }

// The fast path's functions (fission.h) beside kernel.cpp; the split says per kernel.
fission::Split fast_path(const BuildRequest& req, const SourceScan& scan, const std::string& dir) {
  fission::Split split = fission::split_kernels(assemble(req, scan), dir, req.entries, req.file_name);
  if (!split.code.empty() &&
      !write_file(dir + "/" + kFissionCode, "#pragma GCC system_header\n#include \"cudaviz_emu_fission.h\"\n" + split.code)) {
    split.why = "cannot write " + dir + "/" + kFissionCode;
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
  for (const TextFile& h : files)
    if (!write_file(dir + "/" + h.name, h.text)) {
      r.error = "cannot write " + dir + "/" + h.name;
      return finish();
    }
  if (req.fast && !req.explain && !req.verdict) r.fission = fast_path(req, r.scan, dir);
  else r.fission.why = req.explain   ? "explain runs kernels as fibers"
                       : req.verdict ? "a verdict build runs kernels as fibers"
                                     : "the fast path was not asked for";
  const bool fast = !r.fission.code.empty();
  int status = 0;
  std::string why = write_file(dir + "/kernel.cpp", assemble(req, r.scan, &r.fission))
                        ? compile_once(req, dir, status) : "cannot write " + dir + "/kernel.cpp";
  if (why.empty() && fast && failed(status)) {
    // The fast path's code did not compile (a case its rewrite gets wrong):
    // without it, so the student sees their own file's errors, if any.
    const std::string first = parse_log(read_all(dir + "/compile.log"), req.file_name).empty()
                                  ? read_all(dir + "/compile.log").substr(0, 300)
                                  : parse_log(read_all(dir + "/compile.log"), req.file_name).front().message;
    for (fission::KernelSplit& k : r.fission.kernels)
      if (k.ok) k.ok = false, k.why = "the fast path's code did not compile (" + first + ")";
    r.fission.code.clear();
    why = write_file(dir + "/kernel.cpp", assemble(req, r.scan, &r.fission)) ? compile_once(req, dir, status)
                                                                             : "cannot write kernel.cpp";
  }
  r.log = read_all(dir + "/compile.log");
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
  r.shared_object = dir + "/kernel.so";
  return finish();
}

}  // namespace cv::emu
