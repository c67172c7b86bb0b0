// template: fountain_kernel
// Wrong on purpose (the challenge tests): gravity pulls up, so the particles drift from the built-in's.
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
  v += p.gravity;  // wrong: the sign
  // Bounce off the table top (tested before the move, as the document does).
  if (ny <= 0.f && x * x + z * z < p.table_radius * p.table_radius) v *= -p.restitution;

  out.at(i) = make_float4(nx, ny, nz, age);
  vy.at(i) = v;
}
