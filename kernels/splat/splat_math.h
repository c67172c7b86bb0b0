#pragma once
// Per-particle math of the point splatter: project a particle to a pixel, hide
// it behind the table top, and pack its contribution into one 64-bit
// accumulator word. Shared by the CUDA kernel and the CPU twin, so both
// produce the same image bit for bit (integer accumulation is order-free).
#include <cmath>
#include <cstdint>

#include "common/hd.h"
#include "common/palette.h"

namespace cv::splat {

// A pixel's accumulator: hit count in the high 28 bits, the sum of the hits'
// palette positions (quantised to 0..255) in the low 36 bits, so one atomicAdd
// carries both and neither field overflows below 2^28 hits on a pixel.
constexpr int kSumBits = 36;
constexpr uint64_t kSumMask = (uint64_t{1} << kSumBits) - 1;
constexpr uint64_t kOneHit = uint64_t{1} << kSumBits;

struct View {
  float m[16];         // view-projection, column-major (GLM's layout)
  float eye[3];        // camera position, for the table occlusion test
  float table_radius;  // disc y = 0, r < table_radius hides what is behind it; 0: no table
  float scalar_scale;  // w * scalar_scale -> palette position in [0, 1]
  float hide_below;    // particles parked below this y are not drawn
  int width, height;   // image size in pixels
};

// The pixel a particle lands on, or -1 when it is hidden, parked or off screen.
CV_HD long long pixel_of(float x, float y, float z, const View& v) {
  if (!(y >= v.hide_below)) return -1;  // also rejects NaN
  if (v.table_radius > 0.f && (y < 0.f) != (v.eye[1] < 0.f)) {
    // The segment eye -> particle crosses the table plane: hidden if it does
    // so inside the disc.
    const float t = v.eye[1] / (v.eye[1] - y);
    const float cx = v.eye[0] + t * (x - v.eye[0]);
    const float cz = v.eye[2] + t * (z - v.eye[2]);
    if (cx * cx + cz * cz < v.table_radius * v.table_radius) return -1;
  }
  const float* m = v.m;
  const float cw = m[3] * x + m[7] * y + m[11] * z + m[15];
  if (!(cw > 1e-6f)) return -1;  // behind the camera
  const float cx = m[0] * x + m[4] * y + m[8] * z + m[12];
  const float cy = m[1] * x + m[5] * y + m[9] * z + m[13];
  const float cz = m[2] * x + m[6] * y + m[10] * z + m[14];
  if (cz < -cw || cz > cw) return -1;  // outside the near/far planes
  const float sx = (cx / cw * 0.5f + 0.5f) * static_cast<float>(v.width);
  const float sy = (cy / cw * 0.5f + 0.5f) * static_cast<float>(v.height);
  if (!(sx >= 0.f && sy >= 0.f && sx < static_cast<float>(v.width) &&
        sy < static_cast<float>(v.height)))
    return -1;
  // Row 0 at the bottom, as glTexSubImage2D expects.
  return static_cast<long long>(static_cast<int>(sy)) * v.width + static_cast<int>(sx);
}

CV_HD uint64_t contribution(float w, const View& v) {
  float t = w * v.scalar_scale;
  t = t < 0.f ? 0.f : (t > 1.f ? 1.f : t);
  if (t != t) t = 0.f;
  return kOneHit | static_cast<uint64_t>(t * 255.f + 0.5f);
}

// The palettes are kernels/common/palette.h's, shared with the GL sprites.
using Rgb = palette::Rgb;
CV_HD Rgb palette(int which, float t) { return palette::colour(which, t); }

// Tone mapping, shared with the GL sprites' float target (shaders/density.frag):
// a pixel's colour is the mean of its particles' palette colours (the hue by
// age or speed survives any density) and its brightness 1 - exp(-gain *
// weight). exposure() picks the gain from what is drawn: `total_weight` (hits,
// or sprite alpha summed over pixels) spread over the part of a view_pixels
// image a framed scene covers (kCoverage) puts a pixel of mean density at
// 1 - exp(-kMeanLevel) = 70%; denser pixels are brighter, sparser dimmer, at
// 65,536 as at 16,777,216 particles. At most max_gain: a lone particle stays
// translucent.
constexpr float kCoverage = 0.35f, kMeanLevel = 1.2f;
inline float exposure(double total_weight, double view_pixels, float max_gain) {
  if (!(total_weight > 0.0) || !(view_pixels > 0.0)) return max_gain;
  const double mean = total_weight / (kCoverage * view_pixels);
  const double g = kMeanLevel / mean;
  return g < max_gain ? static_cast<float>(g) : max_gain;
}

// One accumulator word to a premultiplied RGBA8 pixel (composited "over" the
// scene): the mean palette colour at the tone-mapped brightness above.
struct Rgba8 {
  unsigned char r, g, b, a;
};
CV_HD Rgba8 resolve(uint64_t acc, int which, float gain) {
  const uint64_t hits = acc >> kSumBits;
  if (hits == 0) return {0, 0, 0, 0};
  const float t = static_cast<float>(acc & kSumMask) / (255.f * static_cast<float>(hits));
  const float bright = 1.f - expf(-gain * static_cast<float>(hits));
  const Rgb c = palette(which, t);
  auto q = [](float f) { return static_cast<unsigned char>(f * 255.f + 0.5f); };
  return {q(c.r * bright), q(c.g * bright), q(c.b * bright), q(bright)};
}

}  // namespace cv::splat
