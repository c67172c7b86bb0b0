// template: reduce
// expect: correct
// The textbook tree in shared memory (blockDim.x a power of two).
extern "C" __global__ void reduce(cv::Span<const int> data, cv::Span<long long> sum) {
  __shared__ long long s[1024];
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
