// template: fountain_kernel
// expect: correct
// A 2D grid-stride loop: any grid covers every particle.
extern "C" __global__ void fountain_step(cv::Span<const float4> in, cv::Span<float4> out,
                                         cv::Span<float> vy, cv::Grid g, cv::Frame f,
                                         cv::Params p, cv::Ids ids) {
  for (unsigned gy = blockIdx.y * blockDim.y + threadIdx.y; gy < g.height; gy += gridDim.y * blockDim.y)
    for (unsigned gx = blockIdx.x * blockDim.x + threadIdx.x; gx < g.width; gx += gridDim.x * blockDim.x) {
      const unsigned i = gy * g.width + gx;
      if (i >= g.count) continue;
      cv::record_launch_id(ids, i);
      const float4 q = in[i];
      float x = q.x, y = q.y, z = q.z, age = q.w, v = vy[i];
      const float vx = cv::launch_vx(gx, g, p), vz = cv::launch_vz(gy, g, p);
      if (age >= p.max_age) {
        age = 0.f;
        v = p.launch_speed + p.launch_jitter * f.randy;
        x = f.emitter_x;
        y = 0.f;
        z = f.emitter_z;
      }
      const float nx = x + vx, ny = y + v, nz = z + vz;
      age += 1.f;
      v -= p.gravity;
      if (ny <= 0.f && x * x + z * z < p.table_radius * p.table_radius) v *= -p.restitution;
      out[i] = make_float4(nx, ny, nz, age);
      vy[i] = v;
    }
}
