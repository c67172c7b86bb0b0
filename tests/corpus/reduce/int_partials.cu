// template: reduce
// expect: wrong the demo's default | values near INT_MAX (the sum passes 2^42)
// Partial sums in int: they wrap past 2^31.
extern "C" __global__ void reduce(cv::Span<const int> data, cv::Span<long long> sum) {
  __shared__ int s[1024];
  const unsigned t = threadIdx.x;
  const unsigned long long i = cv::global_index();
  s[t] = i < data.size ? data[i] : 0;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (t < half) s[t] += s[t + half];
    __syncthreads();
  }
  if (t == 0) atomic_add(&sum[0], s[0]);
}
