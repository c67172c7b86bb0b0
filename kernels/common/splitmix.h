#pragma once
// splitmix64 (Steele, Lea and Flood), written once: a counter-based mix for
// random streams any thread can draw from at any index, on the host and on
// the device (the lab data, the verdict's seeds and starts, a challenge's
// audited launches).
#include <cstdint>

#include "common/hd.h"

namespace cv {

inline constexpr uint64_t kSplitmixGamma = 0x9E3779B97F4A7C15ull;

CV_HD uint64_t splitmix64(uint64_t x) {
  x += kSplitmixGamma;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// The sequential stream from a state: each next() mixes the state, then steps it.
struct SplitmixStream {
  uint64_t s;
  CV_HD uint64_t next() {
    const uint64_t z = splitmix64(s);
    s += kSplitmixGamma;
    return z;
  }
};

}  // namespace cv
