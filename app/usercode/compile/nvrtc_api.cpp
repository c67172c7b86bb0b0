#include "usercode/compile/nvrtc_api.h"

#include <dlfcn.h>

#include <filesystem>
#include <system_error>
#include <vector>

#ifndef CUDAVIZ_NVRTC_LIBRARY
#define CUDAVIZ_NVRTC_LIBRARY ""
#endif

namespace cv::usercode {
namespace {

template <class F>
bool bind(void* lib, const char* name, F& fn, std::string& error) {
  fn = reinterpret_cast<F>(dlsym(lib, name));
  if (!fn && error.empty()) error = std::string("libnvrtc lacks ") + name;
  return fn != nullptr;
}

NvrtcApi load() {
  NvrtcApi api;
  // An installed package ships NVRTC in lib/cudaviz. libnvrtc dlopens its builtins
  // library by soname, which its own (empty) RUNPATH cannot find there: load the
  // package's builtins first, so that lookup finds it already loaded.
  std::vector<std::string> names;
  std::error_code ec;
  const std::filesystem::path pkg =
      std::filesystem::read_symlink("/proc/self/exe", ec).parent_path().parent_path() / "lib" / "cudaviz";
  if (!ec && std::filesystem::exists(pkg / "libnvrtc.so.13", ec)) {
    for (const auto& e : std::filesystem::directory_iterator(pkg, ec))
      if (e.path().filename().string().rfind("libnvrtc-builtins.so", 0) == 0)
        dlopen(e.path().c_str(), RTLD_NOW | RTLD_GLOBAL);
    names.push_back((pkg / "libnvrtc.so.13").string());
  }
  // The soname of CUDA 13's NVRTC, then the build's toolkit copy.
  names.insert(names.end(), {"libnvrtc.so.13", "libnvrtc.so"});
  if (*CUDAVIZ_NVRTC_LIBRARY) names.push_back(CUDAVIZ_NVRTC_LIBRARY);
  void* lib = nullptr;
  std::string last;
  for (const std::string& n : names) {
    lib = dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib) {
      api.library = n;
      break;
    }
    last = dlerror();
  }
  if (!lib) {
    api.error = "NVRTC (libnvrtc.so.13, part of the CUDA 13 toolkit) was not found (" + last +
                "): kernels cannot be compiled for the GPU; install the CUDA toolkit or add its "
                "lib64 folder to LD_LIBRARY_PATH. The CPU path and everything else still work.";
    return api;
  }
  // The library stays loaded for the life of the process (never dlclosed).
  bind(lib, "nvrtcVersion", api.version, api.error);
  bind(lib, "nvrtcGetErrorString", api.error_string, api.error);
  bind(lib, "nvrtcCreateProgram", api.create, api.error);
  bind(lib, "nvrtcDestroyProgram", api.destroy, api.error);
  bind(lib, "nvrtcCompileProgram", api.compile, api.error);
  bind(lib, "nvrtcGetProgramLogSize", api.log_size, api.error);
  bind(lib, "nvrtcGetProgramLog", api.log, api.error);
  bind(lib, "nvrtcGetPTXSize", api.ptx_size, api.error);
  bind(lib, "nvrtcGetPTX", api.ptx, api.error);
  bind(lib, "nvrtcGetCUBINSize", api.cubin_size, api.error);
  bind(lib, "nvrtcGetCUBIN", api.cubin, api.error);
  bind(lib, "nvrtcGetNumSupportedArchs", api.num_archs, api.error);
  bind(lib, "nvrtcGetSupportedArchs", api.archs, api.error);
  return api;
}

}  // namespace

const NvrtcApi& NvrtcApi::get() {
  static const NvrtcApi api = load();
  return api;
}

}  // namespace cv::usercode
