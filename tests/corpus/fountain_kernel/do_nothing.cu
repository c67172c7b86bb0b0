// template: fountain_kernel
// expect: wrong the demo's default
// Nothing written: out keeps what was there.
extern "C" __global__ void fountain_step(cv::Span<const float4> in, cv::Span<float4> out,
                                         cv::Span<float> vy, cv::Grid g, cv::Frame f,
                                         cv::Params p, cv::Ids ids) {
  const unsigned gx = blockIdx.x * blockDim.x + threadIdx.x;
  (void)gx;
}
