// template: fountain_kernel
// Example: the fountain kernel the way document 004 writes it (one thread per
// particle on a 2D grid, the work guarded by `if ((x < width) && ...)`),
// adapted to the app's buffers: float4(x, y, z, age) and a separate vy.
extern "C" __global__ void fountain_step(cv::Span<const float4> pos_in, cv::Span<float4> pos,
                                         cv::Span<float> vy, cv::Grid g, cv::Frame f,
                                         cv::Params p, cv::Ids ids) {
  unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned int arrayLoc = y * g.width + x;

  // if we are doing real work ...
  if ((x < g.width) && (arrayLoc < g.count)) {
    cv::record_launch_id(ids, arrayLoc);
    // move the data we need into registers
    float4 localP = pos_in[arrayLoc];
    float v = vy[arrayLoc];

    // if the particle needs to re-spawn ...
    if (localP.w >= p.max_age) {
      localP = make_float4(f.emitter_x, 0.0f, f.emitter_z, 0.0f);
      v = p.launch_speed + p.launch_jitter * f.randy;
    }
    float4 newOne = make_float4(localP.x + cv::launch_vx(x, g, p), localP.y + v,
                                localP.z + cv::launch_vz(y, g, p), localP.w + 1.0f);
    v -= p.gravity;
    // bounce off the table top
    if (newOne.y <= 0.0f && localP.x * localP.x + localP.z * localP.z <
                                p.table_radius * p.table_radius)
      v *= -p.restitution;

    pos[arrayLoc] = newOne;
    vy[arrayLoc] = v;
  }
}
