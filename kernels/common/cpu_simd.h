#pragma once
// Runtime choice of instruction set for the CPU twins' hot loops. A twin
// compiles its loop twice from one source: once for the baseline x86-64 the
// whole build targets (SSE2) and once with CV_TARGET_AVX2 (AVX2 + FMA), and
// picks one per call. Builds stay portable: no -march flag is needed.
#include <optional>
#include <string>

namespace cv {

enum class SimdPath { Baseline, Avx2 };

const char* to_string(SimdPath p);
std::optional<SimdPath> parse_simd_path(const std::string& name);

// Whether this CPU (and this build) can run the path.
bool simd_supported(SimdPath p);
// p when supported, else std::invalid_argument naming `who` and the path.
SimdPath require_simd(SimdPath p, const char* who);

// The path the twins use by default: the best supported one, unless the app
// chose another with set_default_simd_path (CUDAVIZ_CPU_SIMD, read by app/config).
SimdPath default_simd_path();
// Makes `p` the default for twins built from now on (call once at start-up,
// before any twin). False, and the default unchanged, when this CPU (or build)
// cannot run it.
bool set_default_simd_path(SimdPath p);

}  // namespace cv

// Marks the AVX2 + FMA copy of a loop. Functions it inlines (the shared
// *_math.h code) are compiled for AVX2 inside it, and only inside it; the loop
// bodies are CV_ALWAYS_INLINE so each copy gets its own code.
#if defined(__GNUC__) || defined(__clang__)
#define CV_ALWAYS_INLINE inline __attribute__((always_inline))
#define CV_TARGET_BASELINE __attribute__((flatten))
#else
#define CV_ALWAYS_INLINE inline
#define CV_TARGET_BASELINE
#endif
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define CV_HAS_AVX2_PATH 1
#define CV_TARGET_AVX2 __attribute__((target("avx2,fma"), flatten))
#else
#define CV_HAS_AVX2_PATH 0
#define CV_TARGET_AVX2 CV_TARGET_BASELINE
#endif

// The two copies of a range loop `void body(const Args&, size_t begin, size_t
// end)` (a CV_ALWAYS_INLINE function), compiled once per SimdPath from the one
// source, and `name_for(path)`, the copy a path runs.
#define CV_SIMD_COPIES(name, Args, body)                                       \
  CV_TARGET_BASELINE void name##_baseline(const Args& a, size_t b, size_t e) { \
    body(a, b, e);                                                             \
  }                                                                            \
  CV_TARGET_AVX2 void name##_avx2(const Args& a, size_t b, size_t e) {         \
    body(a, b, e);                                                             \
  }                                                                            \
  inline void (*name##_for(cv::SimdPath p))(const Args&, size_t, size_t) {     \
    return p == cv::SimdPath::Avx2 ? name##_avx2 : name##_baseline;            \
  }
