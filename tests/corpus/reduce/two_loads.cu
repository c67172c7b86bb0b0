// template: reduce
// expect: correct
// "First add during load": a block sums two blocks' worth of data; half the
// grid finds nothing left and adds 0.
extern "C" __global__ void reduce(cv::Span<const int> data, cv::Span<long long> sum) {
  __shared__ long long s[1024];
  const unsigned t = threadIdx.x;
  const unsigned long long i = 2ull * blockIdx.x * blockDim.x + t;
  long long v = 0;
  if (i < data.size) v += data[i];
  if (i + blockDim.x < data.size) v += data[i + blockDim.x];
  s[t] = v;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (t < half) s[t] += s[t + half];
    __syncthreads();
  }
  if (t == 0 && s[0] != 0) atomic_add(&sum[0], s[0]);
}
