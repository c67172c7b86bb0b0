// template: swarm_kernel
// expect: correct
// rsqrtf (2 ulp) for 1 / sqrt: as right as the built-in within float rounding.
extern "C" __global__ void swarm_step(cv::Span<const float4> in, cv::Span<float4> out,
                                      cv::Span<float4> state, cv::swarm::Grid g, float3 target,
                                      unsigned key, cv::swarm::Variant v, cv::swarm::Params p,
                                      cv::Ids ids) {
  const unsigned gx = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned gy = blockIdx.y * blockDim.y + threadIdx.y;
  if (gx >= g.width || gy >= g.height) return;
  const unsigned i = gy * g.width + gx;
  if (i >= g.count) return;
  const float4 q = in[i], st = state[i];
  cv::swarm::Particle s{q.x, q.y, q.z, st.x, st.y, st.z, st.w};
  if (s.age >= p.max_age) cv::swarm::respawn(s, target, key, i, v, p);
  const float dx = target.x - s.x, dy = target.y - s.y, dz = target.z - s.z;
  const float inv = rsqrtf(dx * dx + dy * dy + dz * dz + 1e-12f);
  const float push = (v == cv::swarm::Variant::Swarm ? p.attraction : -p.attraction) * p.dt * inv;
  const float keep = 1.f - p.drag * p.dt;
  s.vx = (s.vx + dx * push) * keep;
  s.vy = (s.vy + dy * push - p.gravity * p.dt) * keep;
  s.vz = (s.vz + dz * push) * keep;
  s.x += s.vx * p.dt;
  s.y += s.vy * p.dt;
  s.z += s.vz * p.dt;
  s.age += p.dt;
  out[i] = make_float4(s.x, s.y, s.z, cv::swarm::age01(s.age, p));
  state[i] = make_float4(s.vx, s.vy, s.vz, s.age);
}
