#pragma once
// All-pairs gravity with Plummer softening, one interaction at a time. Written
// once, called by every CUDA variant (nbody.cu) and the CPU twin (nbody_cpu.cpp).
//
// Units: G, masses, lengths and time are plain numbers (G = 1, total mass 1,
// scene radius ~1 by default). Masses travel in the w component of a body's
// float4 so one 16-byte load brings everything an interaction needs.
#include <vector_types.h>

#include <cmath>

#include "common/hd.h"

namespace cv::nbody {

struct Params {
  float G = 1.f;
  float dt = 2e-3f;         // time per step
  float softening = 0.02f;  // eps > 0: force ~ r / (r^2 + eps^2)^(3/2), no singularity
};

// The usual convention for quoting GFLOP/s: 20 floating-point operations per
// interaction (3 sub, 6 for r^2 + eps^2, 4 for rsqrt, 4 for the scale, 3 for
// the accumulation), whatever the hardware actually executes.
constexpr int kFlopsPerInteraction = 20;

// 1/sqrt(x) for x > 0. On the GPU the single-instruction approximation (about
// 2 ulp); .ftz keeps the compiler from adding a denormal fix-up, harmless since
// x >= eps^2. On the CPU the correctly rounded 1/sqrt.
CV_HD float inv_sqrt(float x) {
#if defined(__CUDA_ARCH__)
  float r;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
#else
  return 1.f / std::sqrt(x);
#endif
}

// A body's position (x, y, z of its float4).
CV_HD float3 xyz(const float4& b) { return {b.x, b.y, b.z}; }

// bj - xi: the separation both bodies of a pair see (with opposite signs).
CV_HD float3 separation(const float3& xi, const float4& bj) {
  return {bj.x - xi.x, bj.y - xi.y, bj.z - xi.z};
}

// a += d s (one FMA a component).
CV_HD void add_scaled(float3& a, const float3& d, float s) {
  a.x += d.x * s;
  a.y += d.y * s;
  a.z += d.z * s;
}

// 1 / (r^2 + eps^2)^(3/2) for the separation d. r^2 + eps^2 is written so that
// it contracts into three FMAs on the GPU.
CV_HD float inv_cube(const float3& d, float eps2) {
  const float inv = inv_sqrt(d.z * d.z + (d.y * d.y + (d.x * d.x + eps2)));
  return inv * inv * inv;
}

// The largest |d| / (|d|^2 + eps^2)^(3/2) over all d: 2 / (3 sqrt 3) / eps^2,
// at |d| = eps / sqrt 2. So no sum of pulls on a body exceeds
// kMaxPull * (sum of |m|) / eps^2, the bound the fixed-point sums rely on.
constexpr double kMaxPull = 0.38490017945975050;

// Adds the acceleration (without the factor G) that body bj = (x, y, z, mass)
// exerts on a body at xi. eps2 = softening^2 > 0, so bj == xi adds exactly 0
// and no branch is needed for the self-interaction.
// 3 add + 3 fma + rsqrt + 3 mul + 3 fma: 13 instructions an interaction.
CV_HD void accumulate(float3& a, const float3& xi, const float4& bj, float eps2) {
  const float3 d = separation(xi, bj);
  add_scaled(a, d, bj.w * inv_cube(d, eps2));
}

// Both halves of a pair at once (Newton's third law): body i, of mass mi at
// xi, gains mj w d and body j loses mi w d, with one w = inv_cube(d) for the
// two. aj_lost collects the mi w d terms; the caller subtracts them from j.
// 3 add + 3 fma + rsqrt + 4 mul + 6 fma: 17 instructions for two interactions.
CV_HD void accumulate_pair(float3& ai, float3& aj_lost, const float3& xi, float mi,
                           const float4& bj, float eps2) {
  const float3 d = separation(xi, bj);
  const float w = inv_cube(d, eps2);
  add_scaled(ai, d, bj.w * w);
  add_scaled(aj_lost, d, mi * w);
}

// m_j / sqrt(r^2 + eps^2): body j's contribution to the (negated, G-less)
// potential at xi. The caller skips j == i.
CV_HD float potential_term(const float3& xi, const float4& bj, float eps2) {
  const float3 d = separation(xi, bj);
  return bj.w * inv_sqrt(d.z * d.z + (d.y * d.y + (d.x * d.x + eps2)));
}

// Leapfrog with velocities stored at half steps: v(n+1/2) = v(n-1/2) + a(n) kick,
// x(n+1) = x(n) + v(n+1/2) dt. kick is G dt/2 on the first step after a reset
// (velocities are then synchronous) and G (dt_prev + dt)/2 afterwards.
CV_HD void kick_drift(float3& x, float3& v, const float3& a, float kick, float dt) {
  add_scaled(v, a, kick);
  add_scaled(x, v, dt);
}

// The colour parameter the shader maps through its palette.
CV_HD float speed(const float3& v) {
  return std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
}

}  // namespace cv::nbody
