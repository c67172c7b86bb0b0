// template: swarm_kernel
// The swarm's step as a whole kernel: one thread per particle, launched as a
// 2D grid of 2D blocks with the block shape from the sliders (grid =
// ceil(width / block.x) x ceil(height / block.y)). in[i] is the last frame's
// (x, y, z, age01), out[i] the next: write every particle. state[i] holds
// (vx, vy, vz, age in steps), read and written in place. The math is the
// built-in's (cv::swarm::step in the prelude), written out so you can change it.
// Try: drop the `gy >= g.height` test, swap x and y, colour by warp and drag
// block y; or steer by distance squared and watch the swarm tighten.
extern "C" __global__ void swarm_step(cv::Span<const float4> in, cv::Span<float4> out,
                                      cv::Span<float4> state, cv::swarm::Grid g, float3 target,
                                      unsigned key, cv::swarm::Variant v, cv::swarm::Params p,
                                      cv::Ids ids) {
  const unsigned gx = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned gy = blockIdx.y * blockDim.y + threadIdx.y;
  if (gx >= g.width || gy >= g.height) return;  // the grid's ragged edges
  const unsigned i = gy * g.width + gx;
  if (i >= g.count) return;
  cv::record_launch_id(ids, i);  // colour by block / warp / SM

  const float4 q = in.at(i), st = state.at(i);
  cv::swarm::Particle s{q.x, q.y, q.z, st.x, st.y, st.z, st.w};
  if (s.age >= p.max_age) cv::swarm::respawn(s, target, key, i, v, p);  // near the target

  // Steer: a fixed push along the unit vector to the target (away from it for
  // the sparkler), then gravity, drag, move and age.
  const float dx = target.x - s.x, dy = target.y - s.y, dz = target.z - s.z;
  const float inv = 1.f / std::sqrt(dx * dx + dy * dy + dz * dz + 1e-12f);
  const float push = (v == cv::swarm::Variant::Swarm ? p.attraction : -p.attraction) * p.dt * inv;
  const float keep = 1.f - p.drag * p.dt;
  s.vx = (s.vx + dx * push) * keep;
  s.vy = (s.vy + dy * push - p.gravity * p.dt) * keep;
  s.vz = (s.vz + dz * push) * keep;
  s.x += s.vx * p.dt;
  s.y += s.vy * p.dt;
  s.z += s.vz * p.dt;
  s.age += p.dt;

  out.at(i) = make_float4(s.x, s.y, s.z, cv::swarm::age01(s.age, p));
  state.at(i) = make_float4(s.vx, s.vy, s.vz, s.age);
}
