#include "usercode/compile/jitlink.h"

#include <dlfcn.h>
#include <nvJitLink.h>

#include <chrono>
#include <filesystem>
#include <system_error>

namespace cv::usercode::guard {
namespace {

// The versioned entry points behind nvJitLink.h's inline wrappers (CUDA 13).
struct Api {
  decltype(&__nvJitLinkCreate_13_0) create = nullptr;
  decltype(&__nvJitLinkDestroy_13_0) destroy = nullptr;
  decltype(&__nvJitLinkAddData_13_0) add_data = nullptr;
  decltype(&__nvJitLinkComplete_13_0) complete = nullptr;
  decltype(&__nvJitLinkGetLinkedCubinSize_13_0) cubin_size = nullptr;
  decltype(&__nvJitLinkGetLinkedCubin_13_0) cubin = nullptr;
  decltype(&__nvJitLinkGetErrorLogSize_13_0) log_size = nullptr;
  decltype(&__nvJitLinkGetErrorLog_13_0) log = nullptr;
  decltype(&__nvJitLinkGetInfoLogSize_13_0) info_size = nullptr;
  decltype(&__nvJitLinkGetInfoLog_13_0) info = nullptr;
  std::string error;
};

template <class F>
void bind(void* lib, const char* name, F& fn, std::string& error) {
  fn = reinterpret_cast<F>(dlsym(lib, name));
  if (!fn && error.empty()) error = std::string("libnvJitLink lacks ") + name;
}

Api load() {
  Api api;
  std::vector<std::string> names;
  std::error_code ec;
  // An installed package ships the toolkit libraries in lib/cudaviz (as NVRTC).
  const std::filesystem::path pkg =
      std::filesystem::read_symlink("/proc/self/exe", ec).parent_path().parent_path() / "lib" / "cudaviz";
  if (!ec && std::filesystem::exists(pkg / "libnvJitLink.so.13", ec))
    names.push_back((pkg / "libnvJitLink.so.13").string());
  names.insert(names.end(), {"libnvJitLink.so.13", "/usr/local/cuda/lib64/libnvJitLink.so.13"});
  void* lib = nullptr;
  std::string last;
  for (const std::string& n : names) {
    if ((lib = dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL))) break;
    last = dlerror();
  }
  if (!lib) {
    api.error = "nvJitLink (libnvJitLink.so.13, part of the CUDA 13 toolkit) was not found (" +
                last + ")";
    return api;
  }
  bind(lib, "__nvJitLinkCreate_13_0", api.create, api.error);
  bind(lib, "__nvJitLinkDestroy_13_0", api.destroy, api.error);
  bind(lib, "__nvJitLinkAddData_13_0", api.add_data, api.error);
  bind(lib, "__nvJitLinkComplete_13_0", api.complete, api.error);
  bind(lib, "__nvJitLinkGetLinkedCubinSize_13_0", api.cubin_size, api.error);
  bind(lib, "__nvJitLinkGetLinkedCubin_13_0", api.cubin, api.error);
  bind(lib, "__nvJitLinkGetErrorLogSize_13_0", api.log_size, api.error);
  bind(lib, "__nvJitLinkGetErrorLog_13_0", api.log, api.error);
  bind(lib, "__nvJitLinkGetInfoLogSize_13_0", api.info_size, api.error);
  bind(lib, "__nvJitLinkGetInfoLog_13_0", api.info, api.error);
  return api;
}

const Api& api() {
  static const Api a = load();
  return a;
}

// RAII for one nvJitLinkHandle.
class Handle {
 public:
  explicit Handle(const Api& a) : a_(a) {}
  ~Handle() {
    if (h_) a_.destroy(&h_);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  nvJitLinkHandle* out() { return &h_; }
  nvJitLinkHandle get() const { return h_; }

 private:
  const Api& a_;
  nvJitLinkHandle h_ = nullptr;
};

}  // namespace

std::string jitlink_status() { return api().error; }

LinkResult link_ptx(const std::string& ptx, const std::string& arch) {
  LinkResult r;
  const Api& a = api();
  if (!a.error.empty()) {
    r.error = a.error;
    return r;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const std::string arch_opt = "-arch=" + arch;
  const char* opts[] = {arch_opt.c_str(), "-lineinfo", "-Xptxas=-v"};
  Handle h(a);
  auto fail = [&](const char* call, nvJitLinkResult e) {
    std::string log;
    size_t n = 0;
    if (h.get() && a.log_size(h.get(), &n) == NVJITLINK_SUCCESS && n > 1) {
      log.assign(n, '\0');
      a.log(h.get(), log.data());
      while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
    }
    r.error = std::string(call) + " failed (nvJitLinkResult " + std::to_string(static_cast<int>(e)) +
              ") compiling the guarded PTX for " + arch + (log.empty() ? "" : ": " + log);
    return r;
  };
  if (nvJitLinkResult e = a.create(h.out(), 3, opts); e != NVJITLINK_SUCCESS)
    return fail("nvJitLinkCreate", e);
  if (nvJitLinkResult e = a.add_data(h.get(), NVJITLINK_INPUT_PTX, ptx.data(), ptx.size(), "guarded.ptx");
      e != NVJITLINK_SUCCESS)
    return fail("nvJitLinkAddData", e);
  if (nvJitLinkResult e = a.complete(h.get()); e != NVJITLINK_SUCCESS) return fail("nvJitLinkComplete", e);
  size_t size = 0;
  if (nvJitLinkResult e = a.cubin_size(h.get(), &size); e != NVJITLINK_SUCCESS || !size)
    return fail("nvJitLinkGetLinkedCubinSize", e);
  r.cubin.resize(size);
  if (nvJitLinkResult e = a.cubin(h.get(), r.cubin.data()); e != NVJITLINK_SUCCESS)
    return fail("nvJitLinkGetLinkedCubin", e);
  if (size_t n = 0; a.info_size(h.get(), &n) == NVJITLINK_SUCCESS && n > 1) {
    r.info.assign(n, '\0');
    a.info(h.get(), r.info.data());
    while (!r.info.empty() && r.info.back() == '\0') r.info.pop_back();
  }
  r.ok = true;
  r.link_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace cv::usercode::guard
