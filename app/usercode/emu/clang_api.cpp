#include "usercode/emu/clang_api.h"

#include <dlfcn.h>
#include <glob.h>

namespace cv::emu {

#if defined(CUDAVIZ_HAVE_LIBCLANG)
namespace {

struct Loaded {
  ClangApi api;
  std::string why;  // "" when api is complete
};

Loaded load() {
  Loaded l;
  // The library the build found (its soname), then the unversioned names.
  void* h = nullptr;
  for (const char* name : {CUDAVIZ_LIBCLANG_SONAME, "libclang.so.1", "libclang.so"})
    if (name[0] && (h = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
  // Another LLVM than the build's (Debian and Ubuntu keep each in /usr/lib/llvm-NN).
  glob_t g{};
  if (!h && glob("/usr/lib/llvm-*/lib/libclang.so.1", 0, nullptr, &g) == 0)
    for (size_t i = g.gl_pathc; !h && i > 0; --i) h = dlopen(g.gl_pathv[i - 1], RTLD_NOW | RTLD_LOCAL);
  globfree(&g);
  if (!h) {
    const char* e = dlerror();
    l.why = std::string("libclang is not installed (") + CUDAVIZ_LIBCLANG_SONAME + ": " + (e ? e : "not found") +
            "); install libclang1 (Debian/Ubuntu) for the emulator's fast path";
    return l;
  }
#define CV_CLANG_FN(name)                                                     \
  l.api.name = reinterpret_cast<decltype(&::name)>(dlsym(h, #name));         \
  if (!l.api.name && l.why.empty()) l.why = "libclang has no " #name " (too old?)";
#include "usercode/emu/clang_api_list.h"
#undef CV_CLANG_FN
  return l;  // the handle stays open for the process: the functions live in it
}

}  // namespace

const ClangApi* load_clang_api(std::string* why) {
  static const Loaded loaded = load();  // read-only once made
  if (!loaded.why.empty()) {
    if (why) *why = loaded.why;
    return nullptr;
  }
  return &loaded.api;
}
#else
const ClangApi* load_clang_api(std::string* why) {
  if (why) *why = "this build of cudaviz was made without libclang (libclang-dev), so the emulator's fast path is off";
  return nullptr;
}
#endif

}  // namespace cv::emu
