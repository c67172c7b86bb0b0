// template: fountain_kernel
extern "C" __global__ void fountain_step(cv::Span<const float4> in, cv::Span<float4> out,
    cv::Span<float> vy, cv::Grid g, cv::Frame f, cv::Params p, cv::Ids ids) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x + (blockIdx.y * blockDim.y + threadIdx.y) * g.width;
  float a[8];
  for (int k = 0; k < 8; ++k) a[k] = g.width * k + i;
  volatile unsigned far = 1u << 26;
  if (i < g.count) vy.data[i] = a[(i & 7) + far];  // a local array out of range
}
