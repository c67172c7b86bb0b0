// template: nbody_kernel
// expect: wrong the demo's default
// Every body's mass taken as 1.
extern "C" __global__ void body_accelerations(cv::Span<const float4> bodies, cv::Span<float4> acc,
                                              unsigned n, float eps2) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float4 bi = bodies[i];
  float ax = 0.f, ay = 0.f, az = 0.f;
  for (unsigned j = 0; j < n; ++j) {
    const float4 bj = bodies[j];
    const float dx = bj.x - bi.x, dy = bj.y - bi.y, dz = bj.z - bi.z;
    const float inv = rsqrtf(dx * dx + dy * dy + dz * dz + eps2);
    const float s = inv * inv * inv;
    ax += dx * s, ay += dy * s, az += dz * s;
  }
  acc[i] = make_float4(ax, ay, az, 0.f);
}
