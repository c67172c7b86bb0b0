// CPU twin of nbody.cu: the same per-interaction math and leapfrog, threaded
// over target bodies. Meant for small N (O(N^2) per step).
#include <vector_functions.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "common/cpu_simd.h"
#include "common/parallel_for.h"
#include "nbody/nbody.h"

namespace cv::nbody {
namespace {

// Targets handled together, one per SIMD lane: the inner q loop below is one
// AVX vector (two SSE vectors) the compiler keeps in registers across j, and
// each body j is loaded once for the group. Every target still sums the bodies
// in order j = 0..n-1 through the shared accumulate(), like the scalar code.
constexpr size_t kGroup = 8;

bool cancelled(const std::atomic<bool>* cancel) {
  return cancel && cancel->load(std::memory_order_relaxed);
}

// G times the acceleration of the targets [first, first + kGroup) (clipped at n).
CV_ALWAYS_INLINE void group_forces(const float4* body, size_t n, size_t first, float eps2, float G,
                                   float4* acc) {
  const size_t m = std::min(kGroup, n - first);
  float xs[kGroup], ys[kGroup], zs[kGroup], ax[kGroup], ay[kGroup], az[kGroup];
  for (size_t q = 0; q < kGroup; ++q) {  // lanes past n repeat the first target
    const float4 b = body[first + (q < m ? q : 0)];
    xs[q] = b.x;
    ys[q] = b.y;
    zs[q] = b.z;
    ax[q] = ay[q] = az[q] = 0.f;
  }
  for (size_t j = 0; j < n; ++j) {
    const float4 b = body[j];
    for (size_t q = 0; q < kGroup; ++q) {
      float3 a = make_float3(ax[q], ay[q], az[q]);
      accumulate(a, make_float3(xs[q], ys[q], zs[q]), b, eps2);
      ax[q] = a.x;
      ay[q] = a.y;
      az[q] = a.z;
    }
  }
  for (size_t q = 0; q < m; ++q) acc[first + q] = make_float4(G * ax[q], G * ay[q], G * az[q], 0.f);
}

struct GroupArgs {
  const float4* body;
  size_t n;
  float eps2, G;
  float4* acc;
  const std::atomic<bool>* cancel;
};

CV_ALWAYS_INLINE void run_groups(const GroupArgs& a, size_t g0, size_t g1) {
  for (size_t g = g0; g < g1; ++g) {
    if (cancelled(a.cancel)) return;
    group_forces(a.body, a.n, g * kGroup, a.eps2, a.G, a.acc);
  }
}

// The groups [g0, g1), compiled once per SimdPath from the one source above.
CV_SIMD_COPIES(groups, GroupArgs, run_groups)

// Sum over j != i of potential_term() for the targets [first, first + kGroup)
// (clipped at n), in double and in j order like the scalar loop. Only the j
// inside the group can be a target itself: that stretch runs with the skip,
// the rest without a branch, which is what lets the compiler vectorise it.
CV_ALWAYS_INLINE void group_potential(const float4* body, size_t n, size_t first, float eps2,
                                      double* pot) {
  const size_t m = std::min(kGroup, n - first);
  float xs[kGroup], ys[kGroup], zs[kGroup];
  double ps[kGroup];
  for (size_t q = 0; q < kGroup; ++q) {
    const float4 b = body[first + (q < m ? q : 0)];
    xs[q] = b.x;
    ys[q] = b.y;
    zs[q] = b.z;
    ps[q] = 0.0;
  }
  auto add = [&](size_t j0, size_t j1) {
    for (size_t j = j0; j < j1; ++j) {
      const float4 b = body[j];
      for (size_t q = 0; q < kGroup; ++q)
        ps[q] += potential_term(make_float3(xs[q], ys[q], zs[q]), b, eps2);
    }
  };
  add(0, first);
  for (size_t j = first; j < first + m; ++j)
    for (size_t q = 0; q < kGroup; ++q)
      if (j != first + q) ps[q] += potential_term(make_float3(xs[q], ys[q], zs[q]), body[j], eps2);
  add(first + m, n);
  for (size_t q = 0; q < m; ++q) pot[first + q] = ps[q];
}

struct PotentialArgs {
  const float4* body;
  size_t n;
  float eps2;
  double* pot;
};

CV_ALWAYS_INLINE void run_potentials(const PotentialArgs& a, size_t g0, size_t g1) {
  for (size_t g = g0; g < g1; ++g) group_potential(a.body, a.n, g * kGroup, a.eps2, a.pot);
}
CV_SIMD_COPIES(potentials, PotentialArgs, run_potentials)

}  // namespace

NBodyCpu::NBodyCpu(unsigned count)
    : count_(count), vbo_(count), vel_(count), simd_(default_simd_path()) {}

void NBodyCpu::set_simd(SimdPath path) {
  simd_ = require_simd(path, "nbody");
}

void NBodyCpu::load(const Bodies& b) {
  if (b.pos.size() != count_ || b.vel.size() != count_)
    throw std::invalid_argument("nbody load: " + std::to_string(b.pos.size()) +
                                " bodies for a simulation of " + std::to_string(count_));
  vbo_ = b.pos;
  vel_ = b.vel;
  synced_ = true;
  last_dt_ = 0;
}

void NBodyCpu::reset(Initial ic, const Params& p, uint64_t seed) {
  load(make_bodies(ic, count_, p, seed));
}

std::vector<float4> NBodyCpu::accelerations(const Params& p,
                                            const std::atomic<bool>* cancel) const {
  require_softening(p);
  const size_t n = count_;
  std::vector<float4> body(n);
  for (size_t i = 0; i < n; ++i) body[i] = make_float4(vbo_[i].x, vbo_[i].y, vbo_[i].z, vel_[i].w);
  std::vector<float4> out(n);
  const float eps2 = p.softening * p.softening, G = p.G;
  const GroupArgs args{body.data(), n, eps2, G, out.data(), cancel};
  const auto groups = groups_for(simd_);
  parallel_for((n + kGroup - 1) / kGroup, [&](size_t g0, size_t g1) { groups(args, g0, g1); });
  if (cancelled(cancel)) return {};
  return out;
}

void NBodyCpu::step(const Params& p, const std::atomic<bool>* cancel) {
  if (count_ == 0) return;
  const std::vector<float4> a = accelerations(p, cancel);
  if (a.size() != count_) return;  // cancelled: state untouched
  // a already carries G, so the kick is the bare time (the GPU folds G into it).
  integrate(a.data(), 1.f, p);
}

std::vector<float4> NBodyCpu::bodies(size_t pad) const {
  std::vector<float4> body(count_ + pad, make_float4(0.f, 0.f, 0.f, 0.f));
  for (size_t i = 0; i < count_; ++i)
    body[i] = make_float4(vbo_[i].x, vbo_[i].y, vbo_[i].z, vel_[i].w);
  return body;
}

void NBodyCpu::step_with(const float4* acc, const Params& p) {
  require_softening(p);
  if (count_ == 0) return;
  integrate(acc, p.G, p);
}

void NBodyCpu::integrate(const float4* a, float g, const Params& p) {
  const float kick = g * (synced_ ? 0.5f * p.dt : 0.5f * (last_dt_ + p.dt));
  float4* pos = vbo_.data();
  float4* vel = vel_.data();
  parallel_for(count_, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      float3 x = make_float3(pos[i].x, pos[i].y, pos[i].z),
             v = make_float3(vel[i].x, vel[i].y, vel[i].z);
      kick_drift(x, v, make_float3(a[i].x, a[i].y, a[i].z), kick, p.dt);
      pos[i] = make_float4(x.x, x.y, x.z, speed(v));
      vel[i] = make_float4(v.x, v.y, v.z, vel[i].w);
    }
  });
  synced_ = false;
  last_dt_ = p.dt;
}

Energy NBodyCpu::energy(const Params& p) const {
  const size_t n = count_;
  Energy e;
  if (n == 0) return e;
  std::vector<float4> a;
  if (!synced_) a = accelerations(p);
  const float half = 0.5f * last_dt_;
  std::vector<float4> body(n);
  for (size_t i = 0; i < n; ++i) body[i] = make_float4(vbo_[i].x, vbo_[i].y, vbo_[i].z, vel_[i].w);
  std::vector<double> pot(n);
  const PotentialArgs args{body.data(), n, p.softening * p.softening, pot.data()};
  const auto potentials = potentials_for(simd_);
  parallel_for((n + kGroup - 1) / kGroup, [&](size_t g0, size_t g1) { potentials(args, g0, g1); });
  for (size_t i = 0; i < n; ++i) {
    float4 w = vel_[i];
    if (!a.empty()) {
      w.x += a[i].x * half;
      w.y += a[i].y * half;
      w.z += a[i].z * half;
    }
    const double m = w.w, vx = w.x, vy = w.y, vz = w.z;
    e.kinetic += 0.5 * m * (vx * vx + vy * vy + vz * vz);
    e.potential += -0.5 * static_cast<double>(p.G) * m * pot[i];
  }
  return e;
}

}  // namespace cv::nbody
