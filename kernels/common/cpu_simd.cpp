#include "common/cpu_simd.h"

#include <atomic>
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

namespace {
// The default, decided once: the best supported path until the app sets one.
std::atomic<SimdPath>& default_path() {
  static std::atomic<SimdPath> path{simd_supported(SimdPath::Avx2) ? SimdPath::Avx2
                                                                   : SimdPath::Baseline};
  return path;
}
}  // namespace

SimdPath default_simd_path() { return default_path().load(std::memory_order_relaxed); }

bool set_default_simd_path(SimdPath p) {
  if (!simd_supported(p)) return false;
  default_path().store(p, std::memory_order_relaxed);
  return true;
}

}  // namespace cv
