// CPU twin of fountain.cu: the same per-particle step, threaded.
#include "common/parallel_for.h"
#include "fountain/fountain.h"

namespace cv::fountain {

FountainCpu::FountainCpu(unsigned count, Variant v) : grid_(make_grid(count)), variant_(v) {}

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
  const Grid g = grid_;
  float4* vbo = vbo_.data();
  if (variant_ == Variant::Lean) {
    float* vy = vy_.data();
    parallel_for(g.count, [&](size_t begin, size_t end) {
      for (size_t i = begin; i < end; ++i) {
        const unsigned gx = static_cast<unsigned>(i % g.width), gy = static_cast<unsigned>(i / g.width);
        const float4 q = vbo[i];
        Particle s{q.x, q.y, q.z, q.w, vy[i]};
        fountain::step(s, launch_vx(gx, g, p), launch_vz(gy, g, p), f, p);
        vbo[i] = make_float4(s.x, s.y, s.z, s.age);
        vy[i] = s.vy;
      }
    });
    return;
  }
  float4* state = state_.data();
  parallel_for(g.count, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      const float4 q = vbo[i], st = state[i];
      Particle s{q.x, q.y, q.z, st.x, st.z};
      fountain::step(s, st.y, st.w, f, p);
      state[i] = make_float4(s.age, st.y, s.vy, st.w);
      vbo[g.count + i] = colour(s.age, p);
      vbo[i] = make_float4(s.x, s.y, s.z, 1.f);
    }
  });
}

}  // namespace cv::fountain
