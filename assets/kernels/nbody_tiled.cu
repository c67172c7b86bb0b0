// template: nbody_kernel
// Example: the tiled shared-memory kernel of GPU Gems 3, chapter 31 ("Fast
// N-Body Simulation with CUDA"), the scheme of the built-in `tiled` variant.
// One body per thread; the block loads a tile of blockDim.x bodies into
// shared memory (one float4 a thread, coalesced), waits, and every thread
// sweeps the whole tile from shared memory; then the next tile. Global memory
// is read n / blockDim.x times less than in the all-pairs kernel.
// The app gives blockDim.x * 16 bytes of dynamic shared memory (the extern
// array) and pads bodies with zero-mass bodies past n, so the last tile needs
// no test: a zero mass adds exactly 0.

// One interaction, GPU Gems' bodyBodyInteraction: a += m_j d / (r^2 + eps^2)^(3/2).
// r^2 + eps^2 is grouped so that it becomes three FMAs; cv::nbody::inv_sqrt is
// the app's one-instruction rsqrt (rsqrt.approx.ftz), as the built-in uses.
__device__ __forceinline__ float3 body_body(float3 a, float4 bi, float4 bj, float eps2) {
  const float dx = bj.x - bi.x, dy = bj.y - bi.y, dz = bj.z - bi.z;
  const float inv = cv::nbody::inv_sqrt(dz * dz + (dy * dy + (dx * dx + eps2)));
  const float s = bj.w * (inv * inv * inv);
  a.x += dx * s;
  a.y += dy * s;
  a.z += dz * s;
  return a;
}

extern "C" __global__ void body_accelerations(cv::Span<const float4> bodies, cv::Span<float4> acc,
                                              unsigned n, float eps2) {
  extern __shared__ float4 tile[];  // blockDim.x bodies
  const unsigned t = threadIdx.x, nt = blockDim.x;
  const unsigned i = blockIdx.x * nt + t;
  const float4 bi = bodies[i];  // past n: a padding body, computed and not stored
  float3 a = make_float3(0.f, 0.f, 0.f);
  for (unsigned base = 0; base < n; base += nt) {
    tile[t] = bodies[base + t];  // each thread brings one body of the tile
    __syncthreads();             // the whole tile is there before anyone reads it
#pragma unroll 8
    for (unsigned k = 0; k < nt; ++k) a = body_body(a, bi, tile[k], eps2);
    __syncthreads();  // everyone is done with this tile before it is overwritten
  }
  if (i < n) acc[i] = make_float4(a.x, a.y, a.z, 0.f);
}
