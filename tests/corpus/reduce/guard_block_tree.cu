// template: reduce
// expect: correct
// A student's block tree: one element a thread into shared memory, then
// halving strides (the largest power of two below the block first), one
// atomic a block.
extern "C" __global__ void reduce(cv::Span<const int> data, cv::Span<long long> sum) {
  __shared__ long long s[1024];
  const unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned nt = blockDim.x * blockDim.y * blockDim.z;
  const unsigned long long i = cv::global_index();
  s[t] = i < data.size ? data[i] : 0;
  __syncthreads();
  unsigned p = 1;
  while (p < nt) p <<= 1;
  for (unsigned stride = p / 2; stride > 0; stride >>= 1) {
    if (t < stride && t + stride < nt) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) atomic_add(&sum[0], s[0]);
}
