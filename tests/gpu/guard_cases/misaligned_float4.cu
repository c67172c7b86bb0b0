// template: fountain_kernel
extern "C" __global__ void fountain_step(cv::Span<const float4> in, cv::Span<float4> out,
    cv::Span<float> vy, cv::Grid g, cv::Frame f, cv::Params p, cv::Ids ids) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x + (blockIdx.y * blockDim.y + threadIdx.y) * g.width;
  if (i < g.count) *reinterpret_cast<float4*>(reinterpret_cast<char*>(out.data) + 4) = make_float4(1, 2, 3, 4);  // misaligned
}
