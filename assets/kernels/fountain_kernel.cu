// template: fountain_kernel
// The fountain's step as a whole kernel: one thread per particle, launched as
// a 2D grid of 2D blocks with the block shape from the sliders (the grid is
// ceil(width / block.x) x ceil(height / block.y)). `in` is the last frame,
// `out` the next: write every particle of `out`. Positions are
// float4(x, y, z, age); vy is each particle's vertical speed.
// Try: drop the `gx >= g.width` test, or swap x and y, and watch the fountain.
extern "C" __global__ void fountain_step(cv::Span<const float4> in, cv::Span<float4> out,
                                         cv::Span<float> vy, cv::Grid g, cv::Frame f,
                                         cv::Params p, cv::Ids ids) {
  const unsigned gx = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned gy = blockIdx.y * blockDim.y + threadIdx.y;
  const unsigned i = gy * g.width + gx;
  if (gx >= g.width || i >= g.count) return;  // the grid's ragged edge
  cv::record_launch_id(ids, i);               // colour by block / warp / SM

  const float4 q = in.at(i);
  float x = q.x, y = q.y, z = q.z, age = q.w, v = vy.at(i);
  const float vx = cv::launch_vx(gx, g, p), vz = cv::launch_vz(gy, g, p);

  if (age >= p.max_age) {  // respawn at the emitter
    age = 0.f;
    v = p.launch_speed + p.launch_jitter * f.randy;
    x = f.emitter_x;
    y = 0.f;
    z = f.emitter_z;
  }
  const float nx = x + vx, ny = y + v, nz = z + vz;
  age += 1.f;
  v -= p.gravity;
  // Bounce off the table top (tested before the move, as the document does).
  if (ny <= 0.f && x * x + z * z < p.table_radius * p.table_radius) v *= -p.restitution;

  out.at(i) = make_float4(nx, ny, nz, age);
  vy.at(i) = v;
}
