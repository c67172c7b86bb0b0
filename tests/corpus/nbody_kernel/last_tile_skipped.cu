// template: nbody_kernel
// expect: wrong n = 7 (less than a warp)
// The tile loop stops before a tile that would pass n: the last tile is lost.
extern "C" __global__ void body_accelerations(cv::Span<const float4> bodies, cv::Span<float4> acc,
                                              unsigned n, float eps2) {
  extern __shared__ float4 tile[];
  const unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  const float4 bi = bodies[i < n ? i : 0];
  float3 a = make_float3(0.f, 0.f, 0.f);
  for (unsigned base = 0; base + blockDim.x <= n; base += blockDim.x) {
    tile[t] = bodies[base + t];
    __syncthreads();
    for (unsigned k = 0; k < blockDim.x; ++k) cv::nbody::accumulate(a, cv::nbody::xyz(bi), tile[k], eps2);
    __syncthreads();
  }
  if (i < n) acc[i] = make_float4(a.x, a.y, a.z, 0.f);
}
