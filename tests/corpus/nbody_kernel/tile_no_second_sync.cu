// template: nbody_kernel
// expect: wrong the demo's default
// races: no barrier between the reads of tile[] and the next tile's writes
// The tile is overwritten while slower threads still read it (no second __syncthreads()).
extern "C" __global__ void body_accelerations(cv::Span<const float4> bodies, cv::Span<float4> acc,
                                              unsigned n, float eps2) {
  extern __shared__ float4 tile[];
  const unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  const float4 bi = bodies[i < n ? i : 0];
  float3 a = make_float3(0.f, 0.f, 0.f);
  for (unsigned base = 0; base < n; base += blockDim.x) {
    tile[t] = bodies[base + t];
    __syncthreads();
    for (unsigned k = 0; k < blockDim.x; ++k) cv::nbody::accumulate(a, cv::nbody::xyz(bi), tile[k], eps2);
  }
  if (i < n) acc[i] = make_float4(a.x, a.y, a.z, 0.f);
}
