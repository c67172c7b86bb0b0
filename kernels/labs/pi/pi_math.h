#pragma once
// Per-sample math of the pi lab (documents 000, 003), shared by the CUDA kernels
// and the CPU twins so that every variant but the cuRAND one samples exactly
// the same points and counts exactly the same hits.
//
// Generator: Philox4x32-10 (Salmon et al., SC'11; the generator behind cuRAND's
// PHILOX4_32_10), counter based: sample s of stream `seed` is a pure function of
// (seed, s). No state array, no curand_init, any thread can start anywhere.
// One call, philox(counter = s / 3, key = seed), gives 128 random bits: six
// 21-bit coordinates, so three samples (slot s % 3, see coords()). The pi
// kernels are bound by integer throughput, so using 126 of the 128 bits
// instead of 48 + 48 is most of what makes the fast variant fast.
//
// A coordinate c is the centre of cell c of a 2^21 grid: X = 2c + 1 (odd,
// below 2^22), x = X / 2^22, exact in a float. Centres keep the lattice bias
// (~1e-13 relative) far below the statistics. Inside means X^2 + Y^2 < 2^44,
// never equal (the left side is 2 mod 4). inside() decides it in float with a
// margin that covers any rounding or contraction, and falls back to the exact
// integer test near the circle, so CPU and GPU agree bit for bit.
#include <cstdint>

#include "common/hd.h"

namespace cv::pi {

struct Words4 {
  uint32_t w[4];
};

CV_HD uint32_t mulhilo32(uint32_t a, uint32_t b, uint32_t* hi) {
#if defined(__CUDA_ARCH__)
  *hi = __umulhi(a, b);  // measured faster on the H100 than the 64-bit product
  return a * b;
#else
  const uint64_t p = static_cast<uint64_t>(a) * b;
  *hi = static_cast<uint32_t>(p >> 32);
  return static_cast<uint32_t>(p);
#endif
}

// Philox's key schedule, computed once: passed by value to a kernel it lives in
// the constant bank, so the rounds spend no instructions on key bumps.
struct PhiloxKey {
  uint32_t k0[10], k1[10];
};
CV_HD PhiloxKey philox_key(uint32_t k0, uint32_t k1) {
  PhiloxKey k{};
  for (int r = 0; r < 10; ++r) {
    k.k0[r] = k0;
    k.k1[r] = k1;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return k;
}
CV_HD PhiloxKey philox_key(uint64_t seed) {
  return philox_key(static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32));
}

// Philox4x32 with 10 rounds on counter c.
CV_HD Words4 philox4x32_10(Words4 c, const PhiloxKey& k) {
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int r = 0; r < 10; ++r) {
    uint32_t hi0, hi1;
    const uint32_t lo0 = mulhilo32(0xD2511F53u, c.w[0], &hi0);
    const uint32_t lo1 = mulhilo32(0xCD9E8D57u, c.w[2], &hi1);
    c = Words4{{hi1 ^ c.w[1] ^ k.k0[r], lo1, hi0 ^ c.w[3] ^ k.k1[r], lo0}};
  }
  return c;
}
CV_HD Words4 philox4x32_10(Words4 c, uint32_t k0, uint32_t k1) {
  return philox4x32_10(c, philox_key(k0, k1));
}

constexpr unsigned kPerCall = 3;  // samples per Philox call

// The four words that hold samples 3q, 3q + 1 and 3q + 2 of the stream keyed by k.
CV_HD Words4 call_words(const PhiloxKey& k, uint64_t q) {
  return philox4x32_10(Words4{{static_cast<uint32_t>(q), static_cast<uint32_t>(q >> 32), 0u, 0u}},
                       k);
}
CV_HD Words4 call_words(uint64_t seed, uint64_t q) {
  return call_words(philox_key(seed), q);
}

// The 21-bit cell coordinates of sample `slot` (0..2) of a call: the top 21
// bits of words (0, 1), of words (2, 3), and for slot 2 the low 11 bits of all
// four words (11 + 10 bits per coordinate).
CV_HD void coords(const Words4& r, unsigned slot, uint32_t* cx, uint32_t* cy) {
  if (slot == 0) {
    *cx = r.w[0] >> 11;
    *cy = r.w[1] >> 11;
  } else if (slot == 1) {
    *cx = r.w[2] >> 11;
    *cy = r.w[3] >> 11;
  } else {
    *cx = ((r.w[0] & 0x7ffu) << 10) | ((r.w[1] & 0x7ffu) >> 1);
    *cy = ((r.w[2] & 0x7ffu) << 10) | ((r.w[3] & 0x7ffu) >> 1);
  }
}

// x = (2c + 1) / 2^22 in [0, 1), built from bits: 1 + (2c + 1) / 2^22 has the
// mantissa (c << 2) | 2, and subtracting 1 is exact.
CV_HD float unit_coord(uint32_t c) {
  const uint32_t bits = 0x3f800000u | (c << 2) | 2u;
#if defined(__CUDA_ARCH__)
  return __uint_as_float(bits) - 1.0f;
#else
  float f;
  static_assert(sizeof f == sizeof bits, "float is 32 bits");
  __builtin_memcpy(&f, &bits, sizeof f);
  return f - 1.0f;
#endif
}

// X^2 + Y^2 < 2^44 with X = 2cx + 1, Y = 2cy + 1: x^2 + y^2 < 1, exactly.
CV_HD bool inside_exact(uint32_t cx, uint32_t cy) {
  const uint64_t X = 2 * static_cast<uint64_t>(cx) + 1, Y = 2 * static_cast<uint64_t>(cy) + 1;
  return X * X + Y * Y < (uint64_t{1} << 44);
}

// The same decision, in float where it is safe: x and y are exact, so x*x + y*y
// is off by less than 2^-22 however it is rounded or contracted; outside a
// 2^-20 band around 1 the float answer is the exact one.
CV_HD bool inside(uint32_t cx, uint32_t cy) {
  const float x = unit_coord(cx), y = unit_coord(cy);
  const float d = x * x + y * y - 1.0f;
  bool in = d < 0.0f;
  if (d >= -0x1p-20f && d <= 0x1p-20f)
    in = inside_exact(cx, cy);  // rare: about 1 sample in 400,000
  return in;
}

CV_HD bool sample_inside(const Words4& r, unsigned slot) {
  uint32_t cx, cy;
  coords(r, slot, &cx, &cy);
  return inside(cx, cy);
}

// Hits among the three samples of a call.
CV_HD uint32_t call_hits(const Words4& r) {
  return static_cast<uint32_t>(sample_inside(r, 0)) + static_cast<uint32_t>(sample_inside(r, 1)) +
         static_cast<uint32_t>(sample_inside(r, 2));
}

// Sample s alone (one call for one sample: what the one-sample-per-thread variants do).
CV_HD bool sample_hit(uint64_t seed, uint64_t s) {
  return sample_inside(call_words(seed, s / kPerCall), static_cast<unsigned>(s % kPerCall));
}

// Hits among samples [begin, end) of stream `seed`, serially (the CPU twins'
// inner loop; GPU kernels spread the same calls over threads).
inline uint64_t count_range(uint64_t seed, uint64_t begin, uint64_t end) {
  const PhiloxKey key = philox_key(seed);
  uint64_t hits = 0, s = begin;
  auto one = [&](uint64_t i) {
    return sample_inside(call_words(key, i / kPerCall), static_cast<unsigned>(i % kPerCall));
  };
  for (; s < end && s % kPerCall; ++s) hits += one(s);  // up to a call boundary
  for (; s + kPerCall <= end; s += kPerCall) hits += call_hits(call_words(key, s / kPerCall));
  for (; s < end; ++s) hits += one(s);
  return hits;
}

// 4 * hits / n and the statistical yardstick for it: the standard deviation of
// the estimate for n independent samples (binomial, p = pi / 4).
inline double estimate(uint64_t hits, uint64_t n) {
  return n ? 4.0 * static_cast<double>(hits) / static_cast<double>(n) : 0.0;
}
double sigma(uint64_t n);
// |estimate - pi| <= k sigma (k = 5 by default: a false alarm about once in 1.7 million runs).
bool within_bound(double est, uint64_t n, double k = 5.0);

}  // namespace cv::pi
