// CPU twin of swarm.cu: the same per-particle step, threaded, and compiled
// twice (baseline and AVX2 + FMA, see common/cpu_simd.h) so the compiler runs
// the shared step() over 4 or 8 particles per instruction.

#include "common/parallel_for.h"
#include "swarm/swarm.h"

namespace cv::swarm {
namespace {

// By value: local copies cannot alias the particle arrays.
struct StepArgs {
  float4* vbo;
  float4* state;
  float3 target;
  uint32_t key;
  Variant v;
  Params p;
};

CV_ALWAYS_INLINE void step_range(const StepArgs& a, size_t begin, size_t end) {
  float4* vbo = a.vbo;
  float4* state = a.state;
  const float3 target = a.target;
  const uint32_t key = a.key;
  const Variant v = a.v;
  const Params p = a.p;
  for (size_t i = begin; i < end; ++i) {
    const float4 q = vbo[i], st = state[i];
    Particle s{q.x, q.y, q.z, st.x, st.y, st.z, st.w};
    swarm::step(s, target, key, static_cast<uint32_t>(i), v, p);
    vbo[i] = make_float4(s.x, s.y, s.z, age01(s.age, p));
    state[i] = make_float4(s.vx, s.vy, s.vz, s.age);
  }
}

CV_SIMD_COPIES(step, StepArgs, step_range)

}  // namespace

SwarmCpu::SwarmCpu(unsigned count, Variant v)
    : grid_(make_grid(count)), variant_(v), simd_(default_simd_path()) {}

void SwarmCpu::set_simd(SimdPath path) {
  simd_ = require_simd(path, "swarm");
}

void SwarmCpu::reset(const Params& p, uint64_t seed, float3 target) {
  InitialState init = initial_state(grid_.count, variant_, p, seed, target);
  vbo_ = std::move(init.vbo);
  state_ = std::move(init.state);
  seed_ = seed;
  steps_ = 0;
}

void SwarmCpu::step(float3 target, const Params& p) {
  const StepArgs a{vbo_.data(), state_.data(), target, step_key(seed_, steps_), variant_, p};
  const auto range = step_for(simd_);
  parallel_for(grid_.count, [&](size_t b, size_t e) { range(a, b, e); });
  ++steps_;
}

}  // namespace cv::swarm
