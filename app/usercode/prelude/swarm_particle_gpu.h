// cudaviz: the kernel around your particle_step (compiled after your file):
// the swarm's 2D grid of 2D blocks with the block from the sliders, as the
// built-in kernel (kernels/swarm/swarm.cu) launches it.
extern "C" __global__ void swarm_step(cv::Span<const float4> in, cv::Span<float4> out,
                                      cv::Span<float4> state, cv::swarm::Grid g, float3 target,
                                      unsigned key, cv::swarm::Variant v, cv::swarm::Params p,
                                      cv::Ids ids) {
  const unsigned gx = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned gy = (blockIdx.y * blockDim.z + threadIdx.z) * blockDim.y + threadIdx.y;
  if (gx >= g.width || gy >= g.height) return;
  const unsigned i = gy * g.width + gx;
  if (i >= g.count) return;
  cv::record_launch_id(ids, i);
  const float4 q = in[i], st = state[i];
  cv::swarm::Particle s{q.x, q.y, q.z, st.x, st.y, st.z, st.w};
  particle_step(s, target, key, i, v, p);
  out[i] = make_float4(s.x, s.y, s.z, cv::swarm::age01(s.age, p));
  state[i] = make_float4(s.vx, s.vy, s.vz, s.age);
}
