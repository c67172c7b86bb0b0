#pragma once
// libclang's C API (clang-c/Index.h, stable across versions), loaded with
// dlopen when first needed: the emulator's fast path (fission.h) reads a
// kernel's types and scopes through it. Without libclang at run time the
// emulator still runs every kernel (as fibers); load() says why not.
#include <string>

#if defined(CUDAVIZ_HAVE_LIBCLANG)
#include <clang-c/Index.h>
#endif

namespace cv::emu {

#if defined(CUDAVIZ_HAVE_LIBCLANG)
// The functions the fast path calls, resolved once per process (immutable after).
struct ClangApi {
#define CV_CLANG_FN(name) decltype(&::name) name = nullptr;
#include "usercode/emu/clang_api_list.h"
#undef CV_CLANG_FN
};
#else
struct ClangApi {};
#endif

// The API, or null with `why` filled (not built with libclang; no library found).
const ClangApi* load_clang_api(std::string* why);

}  // namespace cv::emu
