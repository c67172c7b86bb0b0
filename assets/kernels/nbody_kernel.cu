// template: nbody_kernel
// The n-body scene's force kernel: each body's acceleration from all bodies
// (all-pairs gravity with softening). The app launches one thread per body,
// a 1D grid of ceil(n / block.x) blocks of the block size from the slider,
// then multiplies by G and moves the bodies itself (leapfrog), so the
// galaxies on screen move by what you write here. bodies[j] = (x, y, z, mass);
// acc[i] = (ax, ay, az, unused), without G. eps2 = softening^2 > 0, so j == i
// adds exactly 0 and needs no test.
// Try: the tiled shared-memory version (nbody_tiled.cu: bodies staged in
// __shared__ a block at a time), `#pragma unroll`, rsqrtf against 1/sqrtf,
// and compare interactions/s with the built-in seed, tiled and fast variants.
extern "C" __global__ void body_accelerations(cv::Span<const float4> bodies, cv::Span<float4> acc,
                                              unsigned n, float eps2) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float4 bi = bodies[i];
  float ax = 0.f, ay = 0.f, az = 0.f;
  for (unsigned j = 0; j < n; ++j) {
    const float4 bj = bodies[j];  // every other body, read from global memory
    const float dx = bj.x - bi.x, dy = bj.y - bi.y, dz = bj.z - bi.z;
    const float inv = rsqrtf(dx * dx + dy * dy + dz * dz + eps2);  // 1 / sqrt(r^2 + eps^2)
    const float s = bj.w * inv * inv * inv;                         // m_j / (r^2 + eps^2)^(3/2)
    ax += dx * s;
    ay += dy * s;
    az += dz * s;
  }
  acc.at(i) = make_float4(ax, ay, az, 0.f);
}
