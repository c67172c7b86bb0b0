#include "common/cpu_simd.h"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

namespace cv {

const char* to_string(SimdPath p) {
  return p == SimdPath::Avx2 ? "avx2" : "baseline";
}

std::optional<SimdPath> parse_simd_path(const std::string& name) {
  if (name == "baseline") return SimdPath::Baseline;
  if (name == "avx2") return SimdPath::Avx2;
  return std::nullopt;
}

bool simd_supported(SimdPath p) {
  if (p == SimdPath::Baseline) return true;
#if CV_HAS_AVX2_PATH
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

SimdPath require_simd(SimdPath p, const char* who) {
  if (!simd_supported(p))
    throw std::invalid_argument(std::string(who) + ": SIMD path " + to_string(p) +
                                " is not supported on this CPU");
  return p;
}

SimdPath default_simd_path() {
  static const SimdPath path = [] {
    const SimdPath best = simd_supported(SimdPath::Avx2) ? SimdPath::Avx2 : SimdPath::Baseline;
    const char* env = std::getenv("CUDAVIZ_CPU_SIMD");
    if (!env || !*env) return best;
    const auto want = parse_simd_path(env);
    if (!want)
      std::fprintf(stderr, "cudaviz: CUDAVIZ_CPU_SIMD=%s is not baseline or avx2; using %s\n", env,
                   to_string(best));
    else if (!simd_supported(*want))
      std::fprintf(stderr, "cudaviz: CUDAVIZ_CPU_SIMD=%s: this CPU lacks AVX2/FMA; using %s\n", env,
                   to_string(best));
    return want && simd_supported(*want) ? *want : best;
  }();
  return path;
}

}  // namespace cv
