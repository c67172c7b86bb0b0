// template: nbody_kernel
// expect: correct
// All pairs from global memory, the j loop unrolled by 8 with #pragma.
extern "C" __global__ void body_accelerations(cv::Span<const float4> bodies, cv::Span<float4> acc,
                                              unsigned n, float eps2) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float4 me = bodies[i];
  float3 a = make_float3(0.f, 0.f, 0.f);
#pragma unroll 8
  for (unsigned j = 0; j < n; ++j) {
    const float4 o = bodies[j];
    const float dx = o.x - me.x, dy = o.y - me.y, dz = o.z - me.z;
    const float inv = rsqrtf(dz * dz + (dy * dy + (dx * dx + eps2)));
    const float f = o.w * (inv * inv * inv);
    a.x += dx * f;
    a.y += dy * f;
    a.z += dz * f;
  }
  acc[i] = make_float4(a.x, a.y, a.z, 0.f);
}
