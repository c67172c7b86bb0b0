// template: nbody_kernel
// expect: correct
// Tiles of blockDim.x bodies in shared memory (the padding bodies past n have no mass).
extern "C" __global__ void body_accelerations(cv::Span<const float4> bodies, cv::Span<float4> acc,
                                              unsigned n, float eps2) {
  extern __shared__ float4 tile[];
  const unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  const float4 bi = bodies[i < n ? i : 0];
  float3 a = make_float3(0.f, 0.f, 0.f);
  for (unsigned base = 0; base < n; base += blockDim.x) {
    tile[t] = bodies[base + t];
    __syncthreads();
    for (unsigned k = 0; k < blockDim.x; ++k) {
      const float4 bj = tile[k];
      const float dx = bj.x - bi.x, dy = bj.y - bi.y, dz = bj.z - bi.z;
      const float inv = rsqrtf(dx * dx + dy * dy + dz * dz + eps2);
      const float s = bj.w * inv * inv * inv;
      a.x += dx * s, a.y += dy * s, a.z += dz * s;
    }
    __syncthreads();
  }
  if (i < n) acc[i] = make_float4(a.x, a.y, a.z, 0.f);
}
