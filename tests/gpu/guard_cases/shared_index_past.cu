// template: fountain_kernel
extern "C" __global__ void fountain_step(cv::Span<const float4> in, cv::Span<float4> out,
    cv::Span<float> vy, cv::Grid g, cv::Frame f, cv::Params p, cv::Ids ids) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x + (blockIdx.y * blockDim.y + threadIdx.y) * g.width;
  __shared__ float s[256];
  const unsigned t = threadIdx.y * blockDim.x + threadIdx.x;
  volatile float* vs = s;
  vs[t + 100000u] = 1.f;  // past the __shared__ array
  __syncthreads();
  if (i < g.count) vy.data[i] = vs[t];
}
