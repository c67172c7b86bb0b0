// CPU twin of fountain.cu: the same per-particle step, threaded, and compiled
// twice (baseline and AVX2 + FMA, see common/cpu_simd.h) so the compiler can
// run the shared step() over 4 or 8 particles per instruction.
#include <algorithm>

#include "common/parallel_for.h"
#include "fountain/fountain.h"

namespace cv::fountain {
namespace {

// Frame and Params travel by value: local copies cannot alias the particle
// arrays, so the vectorised loops need no run-time overlap checks.
struct LeanArgs {
  float4* vbo;
  float* vy;
  const float* vx;  // launch_vx() of each grid column
  Grid g;
  Frame f;
  Params p;
};

// Particles [begin, end), a grid row at a time: the row gives vz, the column
// table vx, so no particle pays for the division that maps an index to (x, y).
CV_ALWAYS_INLINE void lean_range(const LeanArgs& a, size_t begin, size_t end) {
  float4* vbo = a.vbo;
  float* vyv = a.vy;
  const float* vxs = a.vx;
  const Grid g = a.g;
  const Frame f = a.f;
  const Params p = a.p;
  const size_t w = g.width;
  for (size_t row = begin / w, i = begin; i < end; ++row) {
    const size_t base = row * w, row_end = std::min(end, base + w);
    const float vz = launch_vz(static_cast<unsigned>(row), g, p);
    for (size_t k = i; k < row_end; ++k) {
      const float4 q = vbo[k];
      Particle s{q.x, q.y, q.z, q.w, vyv[k]};
      fountain::step(s, vxs[k - base], vz, f, p);
      vbo[k] = make_float4(s.x, s.y, s.z, s.age);
      vyv[k] = s.vy;
    }
    i = row_end;
  }
}

struct OriginalArgs {
  float4* vbo;  // positions, then colours
  float4* state;
  unsigned count;
  Frame f;
  Params p;
};

CV_ALWAYS_INLINE void original_range(const OriginalArgs& a, size_t begin, size_t end) {
  float4* vbo = a.vbo;
  float4* colours = a.vbo + a.count;
  float4* state = a.state;
  const Frame f = a.f;
  const Params p = a.p;
  for (size_t i = begin; i < end; ++i) {
    const float4 q = vbo[i], st = state[i];
    Particle s{q.x, q.y, q.z, st.x, st.z};
    fountain::step(s, st.y, st.w, f, p);
    state[i] = make_float4(s.age, st.y, s.vy, st.w);
    colours[i] = colour(s.age, p);
    vbo[i] = make_float4(s.x, s.y, s.z, 1.f);
  }
}

CV_SIMD_COPIES(lean, LeanArgs, lean_range)
CV_SIMD_COPIES(original, OriginalArgs, original_range)

}  // namespace

FountainCpu::FountainCpu(unsigned count, Variant v)
    : grid_(make_grid(count)), variant_(v), simd_(default_simd_path()) {}

void FountainCpu::set_simd(SimdPath path) {
  simd_ = require_simd(path, "fountain");
}

void FountainCpu::reset(const Params& p, uint64_t seed) {
  InitialState init = initial_state(grid_, p, seed);
  const unsigned n = grid_.count;
  if (variant_ == Variant::Lean) {
    vbo_ = std::move(init.positions);
    vy_ = std::move(init.vy);
    return;
  }
  vbo_.assign(static_cast<size_t>(n) * 2, make_float4(0, 0, 0, 0));
  state_.resize(n);
  for (unsigned i = 0; i < n; ++i) {
    const float4 q = init.positions[i];
    vbo_[i] = make_float4(q.x, q.y, q.z, 1.f);
    vbo_[n + i] = colour(q.w, p);
    state_[i] = make_float4(q.w, launch_vx(i % grid_.width, grid_, p), init.vy[i],
                            launch_vz(i / grid_.width, grid_, p));
  }
}

void FountainCpu::step(const Frame& f, const Params& p) {
  if (variant_ == Variant::Lean) {
    vx_.resize(grid_.width);
    for (unsigned x = 0; x < grid_.width; ++x) vx_[x] = launch_vx(x, grid_, p);
    const LeanArgs a{vbo_.data(), vy_.data(), vx_.data(), grid_, f, p};
    const auto range = lean_for(simd_);
    parallel_for(grid_.count, [&](size_t b, size_t e) { range(a, b, e); });
    return;
  }
  const OriginalArgs a{vbo_.data(), state_.data(), grid_.count, f, p};
  const auto range = original_for(simd_);
  parallel_for(grid_.count, [&](size_t b, size_t e) { range(a, b, e); });
}

}  // namespace cv::fountain
