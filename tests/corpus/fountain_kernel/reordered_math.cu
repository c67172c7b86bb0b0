// template: fountain_kernel
// expect: correct
// The same physics in another order: the launch speed spelled out, the
// bounce test as a distance, fmaf where it fits.
extern "C" __global__ void fountain_step(cv::Span<const float4> in, cv::Span<float4> out,
                                         cv::Span<float> vy, cv::Grid g, cv::Frame f,
                                         cv::Params p, cv::Ids ids) {
  const unsigned gx = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned gy = blockIdx.y * blockDim.y + threadIdx.y;
  if (gx >= g.width || gy >= g.height) return;
  const unsigned i = gy * g.width + gx;
  if (i >= g.count) return;
  float4 q = in[i];
  float v = vy[i];
  if (q.w >= p.max_age) q = make_float4(f.emitter_x, 0.f, f.emitter_z, 0.f), v = fmaf(p.launch_jitter, f.randy, p.launch_speed);
  const float vx = p.spread * gx / g.width - 0.5f * p.spread;
  const float vz = p.spread * gy / g.height - 0.5f * p.spread;
  const bool lands = q.y + v <= 0.f && sqrtf(fmaf(q.x, q.x, q.z * q.z)) < p.table_radius;
  const float v2 = v - p.gravity;
  out[i] = make_float4(q.x + vx, q.y + v, q.z + vz, q.w + 1.f);
  vy[i] = lands ? -p.restitution * v2 : v2;
}
