// CPU twin of nbody.cu: the same per-interaction math and leapfrog, threaded
// over target bodies. Meant for small N (O(N^2) per step).
#include <vector_functions.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "common/parallel_for.h"
#include "nbody/nbody.h"

namespace cv::nbody {
namespace {

// Targets handled together: each body j is loaded once for a group, and the
// group's independent sums give the compiler room to vectorise across targets.
constexpr size_t kGroup = 8;

bool cancelled(const std::atomic<bool>* cancel) {
  return cancel && cancel->load(std::memory_order_relaxed);
}

}  // namespace

NBodyCpu::NBodyCpu(unsigned count) : count_(count), vbo_(count), vel_(count) {}

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
  const size_t n = count_;
  std::vector<float4> body(n);
  for (size_t i = 0; i < n; ++i) body[i] = make_float4(vbo_[i].x, vbo_[i].y, vbo_[i].z, vel_[i].w);
  std::vector<float4> out(n);
  const float eps2 = p.softening * p.softening, G = p.G;
  const float4* bj = body.data();
  float4* acc = out.data();
  const size_t groups = (n + kGroup - 1) / kGroup;
  parallel_for(groups, [&](size_t g0, size_t g1) {
    for (size_t g = g0; g < g1; ++g) {
      if (cancelled(cancel)) return;
      const size_t first = g * kGroup, m = std::min(kGroup, n - first);
      float3 x[kGroup], a[kGroup];
      for (size_t q = 0; q < kGroup; ++q) {
        const float4 b = bj[first + (q < m ? q : 0)];
        x[q] = make_float3(b.x, b.y, b.z);
        a[q] = make_float3(0.f, 0.f, 0.f);
      }
      for (size_t j = 0; j < n; ++j) {
        const float4 b = bj[j];
        for (size_t q = 0; q < kGroup; ++q) accumulate(a[q], x[q], b, eps2);
      }
      for (size_t q = 0; q < m; ++q)
        acc[first + q] = make_float4(G * a[q].x, G * a[q].y, G * a[q].z, 0.f);
    }
  });
  if (cancelled(cancel)) return {};
  return out;
}

void NBodyCpu::step(const Params& p, const std::atomic<bool>* cancel) {
  if (count_ == 0) return;
  const std::vector<float4> a = accelerations(p, cancel);
  if (a.size() != count_) return;  // cancelled: state untouched
  // a already carries G, so the kick is the bare time (the GPU folds G into it).
  const float kick = synced_ ? 0.5f * p.dt : 0.5f * (last_dt_ + p.dt);
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
  const float half = 0.5f * last_dt_, eps2 = p.softening * p.softening;
  std::vector<double> ke(n), pe(n);
  parallel_for(n, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      const float3 xi = make_float3(vbo_[i].x, vbo_[i].y, vbo_[i].z);
      double pot = 0;
      for (size_t j = 0; j < n; ++j) {
        if (j == i) continue;
        const float4 bj = make_float4(vbo_[j].x, vbo_[j].y, vbo_[j].z, vel_[j].w);
        pot += potential_term(xi, bj, eps2);
      }
      float4 w = vel_[i];
      if (!a.empty()) {
        w.x += a[i].x * half;
        w.y += a[i].y * half;
        w.z += a[i].z * half;
      }
      const double m = w.w, vx = w.x, vy = w.y, vz = w.z;
      ke[i] = 0.5 * m * (vx * vx + vy * vy + vz * vz);
      pe[i] = -0.5 * static_cast<double>(p.G) * m * pot;
    }
  });
  for (size_t i = 0; i < n; ++i) {
    e.kinetic += ke[i];
    e.potential += pe[i];
  }
  return e;
}

}  // namespace cv::nbody
