// CPU twin of swarm.cu: the same per-particle step, threaded.
#include "common/parallel_for.h"
#include "swarm/swarm.h"

namespace cv::swarm {

SwarmCpu::SwarmCpu(unsigned count, Variant v) : grid_(make_grid(count)), variant_(v) {}

void SwarmCpu::reset(const Params& p, uint64_t seed, float3 target) {
  InitialState init = initial_state(grid_.count, variant_, p, seed, target);
  vbo_ = std::move(init.vbo);
  state_ = std::move(init.state);
  seed_ = seed;
  steps_ = 0;
}

void SwarmCpu::step(float3 target, const Params& p) {
  const uint32_t key = step_key(seed_, steps_);
  const Variant v = variant_;
  float4* vbo = vbo_.data();
  float4* state = state_.data();
  parallel_for(grid_.count, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      const float4 q = vbo[i], st = state[i];
      Particle s{q.x, q.y, q.z, st.x, st.y, st.z, st.w};
      swarm::step(s, target, key, static_cast<uint32_t>(i), v, p);
      vbo[i] = make_float4(s.x, s.y, s.z, age01(s.age, p));
      state[i] = make_float4(s.vx, s.vy, s.vz, s.age);
    }
  });
  ++steps_;
}

}  // namespace cv::swarm
