// template: fountain_kernel
extern "C" __global__ void fountain_step(cv::Span<const float4> in, cv::Span<float4> out,
    cv::Span<float> vy, cv::Grid g, cv::Frame f, cv::Params p, cv::Ids ids) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x + (blockIdx.y * blockDim.y + threadIdx.y) * g.width;
  if (i < g.count) *reinterpret_cast<float*>(0x7f00000000ull + 4096ull * i) = 1.f;  // a pointer from an integer
}
