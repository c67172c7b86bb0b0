// template: nbody_kernel
// expect: correct
// A student's tiled n-body: a tile of blockDim.x bodies in shared memory,
// swept with #pragma unroll 4. The app pads the bodies with zero masses
// past n and gives blockDim.x * 16 bytes of shared memory.
extern "C" __global__ void body_accelerations(cv::Span<const float4> bodies, cv::Span<float4> acc,
                                              unsigned n, float eps2) {
  extern __shared__ float4 tile[];
  const unsigned t = threadIdx.x, nt = blockDim.x;
  const unsigned i = blockIdx.x * nt + t;
  const float4 me = bodies[i];
  float ax = 0.f, ay = 0.f, az = 0.f;
  for (unsigned base = 0; base < n; base += nt) {
    tile[t] = bodies[base + t];
    __syncthreads();
#pragma unroll 4
    for (unsigned k = 0; k < nt; ++k) {
      const float4 o = tile[k];
      const float dx = o.x - me.x, dy = o.y - me.y, dz = o.z - me.z;
      const float inv = rsqrtf(dx * dx + dy * dy + dz * dz + eps2);
      const float f = o.w * inv * inv * inv;
      ax += dx * f;
      ay += dy * f;
      az += dz * f;
    }
    __syncthreads();
  }
  if (i < n) acc[i] = make_float4(ax, ay, az, 0.f);
}
