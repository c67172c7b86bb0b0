// template: nbody_kernel
// expect: correct
// A grid-stride loop over bodies with the prelude's own accumulate().
extern "C" __global__ void body_accelerations(cv::Span<const float4> bodies, cv::Span<float4> acc,
                                              unsigned n, float eps2) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const float3 xi = cv::nbody::xyz(bodies[i]);
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (unsigned j = 0; j < n; ++j) cv::nbody::accumulate(a, xi, bodies[j], eps2);
    acc[i] = make_float4(a.x, a.y, a.z, 0.f);
  }
}
