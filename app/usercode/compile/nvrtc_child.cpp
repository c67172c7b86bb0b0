#include "usercode/compile/nvrtc_child.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "process/run_program.h"
#include "usercode/compile/compile.h"
#include "usercode/compile/nvrtc_api.h"
#include "usercode/sandbox/landlock.h"
#include "usercode/compile/temp_dir.h"


namespace cv::usercode {
namespace {

using json = nlohmann::json;

std::string read_bounded(const std::string& path, size_t max) {
  std::ifstream in(path, std::ios::binary);
  std::string s;
  s.resize(max + 1);
  in.read(s.data(), static_cast<std::streamsize>(max + 1));
  s.resize(static_cast<size_t>(in.gcount()));
  return s;
}

bool write_file(const std::string& path, const char* data, size_t n) {
  std::ofstream out(path, std::ios::binary);
  out.write(data, static_cast<std::streamsize>(n));
  return static_cast<bool>(out);
}

// The child's confinement before it reads the program: what was active.
std::string confine_child(const std::string& dir, const NvrtcApi& api) {
  std::string active, missing;
  auto limit = [](int r, rlim_t v) {
    const rlimit l{v, v};
    return setrlimit(r, &l) == 0;
  };
  const bool limited = limit(RLIMIT_FSIZE, kMaxBinaryBytes) && limit(RLIMIT_CPU, 60) && limit(RLIMIT_CORE, 0);
  active += limited ? "limits (files 64 MiB, CPU 60 s)" : "";
  if (unshare(CLONE_NEWUSER) == 0) active += ", user namespace";
  if (unshare(CLONE_NEWNET) == 0) active += ", network namespace";
  // NVRTC loads its builtins library at its first compile: load it now, by
  // its versioned soname and from NVRTC's own (real) folder, so the compile
  // itself opens no file.
  int major = 0, minor = 0;
  api.version(&major, &minor);
  const std::string soname = "libnvrtc-builtins.so." + std::to_string(major) + "." + std::to_string(minor);
  bool builtins = dlopen(soname.c_str(), RTLD_NOW | RTLD_GLOBAL) != nullptr;
  Dl_info info{};
  std::error_code ec;
  if (!builtins && dladdr(reinterpret_cast<void*>(api.compile), &info) && info.dli_fname) {
    const auto folder = std::filesystem::canonical(info.dli_fname, ec).parent_path();
    for (const auto& e : std::filesystem::directory_iterator(folder, ec))
      if (e.path().filename().string().rfind("libnvrtc-builtins.so", 0) == 0)
        builtins = dlopen(e.path().c_str(), RTLD_NOW | RTLD_GLOBAL) != nullptr || builtins;
  }
  const std::string why = builtins ? sandbox::restrict_files_to("", dir) : "NVRTC's builtins library was not found";
  if (why.empty()) active += ", landlock (no file but its own folder's)";
  else missing = "; not active: landlock: " + why;
  return active + missing;
}

// Starts `helper dir` in its own process group (process/run_program.h: the
// group is killed at `limit_s`); "" or why it did not finish.
std::string run_child(const std::string& runner, const std::string& dir, double limit_s, int& status) {
  const std::string why = run_to_log({runner, dir}, "/dev/null", limit_s, status);
  if (why.empty()) return "";
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
    char t[32];
    std::snprintf(t, sizeof t, "%g s", limit_s);
    return std::string("NVRTC ran longer than ") + t + " (a submission's compile limit) and was stopped";
  }
  return why;
}

}  // namespace

int nvrtc_child_main(const std::string& dir) {
  json result;
  const NvrtcApi& api = NvrtcApi::get();
  const json req = json::parse(read_bounded(dir + "/request.json", 4u << 20), nullptr, false);
  auto finish = [&](int code) {
    const std::string text = result.dump();
    write_file(dir + "/result.json", text.data(), text.size());
    return code;
  };
  if (!api.error.empty()) return result["error"] = api.error, finish(2);
  if (req.is_discarded()) return result["error"] = "the compile request does not parse", finish(2);
  result["sandbox"] = confine_child(dir, api);
  const std::string program = req.value("program", "");
  const std::string file = req.value("file_name", "kernel.cu");
  std::vector<std::string> names, texts, options = req.value("options", std::vector<std::string>{});
  for (const auto& h : req.value("headers", json::array())) names.push_back(h.at(0)), texts.push_back(h.at(1));
  std::vector<const char*> n, t, o;
  for (size_t i = 0; i < names.size(); ++i) n.push_back(names[i].c_str()), t.push_back(texts[i].c_str());
  for (const std::string& x : options) o.push_back(x.c_str());
  nvrtcProgram prog = nullptr;
  if (nvrtcResult e = api.create(&prog, program.c_str(), file.c_str(), static_cast<int>(n.size()), t.data(), n.data());
      e != NVRTC_SUCCESS)
    return result["error"] = std::string("nvrtcCreateProgram: ") + api.error_string(e), finish(2);
  const nvrtcResult r = api.compile(prog, static_cast<int>(o.size()), o.data());
  result["result"] = static_cast<int>(r);
  result["result_name"] = api.error_string(r);
  size_t size = 0;
  if (api.log_size(prog, &size) == NVRTC_SUCCESS && size) {
    std::string log(size, '\0');
    api.log(prog, log.data());
    write_file(dir + "/log.txt", log.data(), strnlen(log.data(), log.size()));
  }
  if (r == NVRTC_SUCCESS && api.ptx_size(prog, &size) == NVRTC_SUCCESS && size) {
    std::string ptx(size, '\0');
    api.ptx(prog, ptx.data());
    write_file(dir + "/kernel.ptx", ptx.data(), strnlen(ptx.data(), ptx.size()));
  }
  if (r == NVRTC_SUCCESS && req.value("cubin", false) && api.cubin_size(prog, &size) == NVRTC_SUCCESS && size) {
    std::vector<char> cubin(size);
    api.cubin(prog, cubin.data());
    write_file(dir + "/kernel.cubin", cubin.data(), cubin.size());
  }
  api.destroy(&prog);
  return finish(0);
}

NvrtcOutput nvrtc_in_child(const NvrtcJob& job, const std::string& runner, const std::string& tmpdir, double limit_s) {
  NvrtcOutput out;
  if (runner.empty()) return out.error = "cudaviz-nvrtc (which compiles submissions apart) was not found", out;
  std::unique_ptr<TempDir> dir;
  try {
    dir = std::make_unique<TempDir>(tmpdir);
  } catch (const std::exception& e) {
    return out.error = e.what(), out;
  }
  json req = {{"program", job.program}, {"file_name", job.file_name}, {"options", job.options}, {"cubin", job.want_cubin}};
  req["headers"] = json::array();
  for (const auto& [name, text] : job.headers) req["headers"].push_back({name, text});
  const std::string text = req.dump();
  if (!write_file(dir->path() + "/request.json", text.data(), text.size()))
    return out.error = "cannot write the compile request", out;
  int status = 0;
  if (std::string why = run_child(runner, dir->path(), limit_s, status); !why.empty()) return out.error = why, out;
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXFSZ)
    return out.error = "NVRTC's output grew past " + std::to_string(kMaxBinaryBytes >> 20) + " MiB and was stopped", out;
  const json r = json::parse(read_bounded(dir->path() + "/result.json", 1u << 20), nullptr, false);
  if (r.is_discarded() || !r.is_object())
    return out.error = "NVRTC's process ended without an answer (" +
                       std::string(WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : "exit " + std::to_string(WEXITSTATUS(status))) + ")",
           out;
  out.sandbox = r.value("sandbox", "");
  out.error = r.value("error", "");
  if (!r.contains("result")) return out;
  out.ran = true;
  out.result = r.value("result", -1);
  out.result_name = r.value("result_name", "");
  out.log = read_bounded(dir->path() + "/log.txt", kMaxBinaryBytes);
  out.ptx = read_bounded(dir->path() + "/kernel.ptx", kMaxBinaryBytes);
  const std::string cubin = read_bounded(dir->path() + "/kernel.cubin", kMaxBinaryBytes);
  out.cubin.assign(cubin.begin(), cubin.end());
  return out;
}

}  // namespace cv::usercode
