// cudaviz: the kernel around your particle_step (compiled after your file).
// It launches the fountain's 2D grid of 2D blocks with the block from the
// sliders and calls your function once per particle.
extern "C" __global__ void fountain_step(cv::Span<const float4> in, cv::Span<float4> out,
                                         cv::Span<float> vy, cv::Grid g, cv::Frame f,
                                         cv::Params p, cv::Ids ids) {
  const unsigned gx = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned gy = blockIdx.y * blockDim.y + threadIdx.y;
  const unsigned i = gy * g.width + gx;
  if (gx >= g.width || i >= g.count) return;
  cv::record_launch_id(ids, i);
  const float4 q = in[i];
  cv::Particle s{q.x, q.y, q.z, q.w, vy[i]};
  particle_step(s, cv::launch_vx(gx, g, p), cv::launch_vz(gy, g, p), f, p);
  out[i] = make_float4(s.x, s.y, s.z, s.age);
  vy[i] = s.vy;
}
