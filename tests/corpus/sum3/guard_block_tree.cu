// template: sum3
// expect: correct
// Each thread's count in shared memory (the app gives 8 bytes a thread),
// then a block tree, then one atomic a block.
extern "C" __global__ void sum3(cv::Span<const int> v, cv::Span<unsigned long long> count) {
  extern __shared__ unsigned long long counts[];
  const unsigned t = threadIdx.y * blockDim.x + threadIdx.x;
  const unsigned nt = blockDim.x * blockDim.y;
  const unsigned long long n = v.size;
  const unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned long long j = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned long long mine = 0;
  if (i < n && j < n && i < j) {
    const long long a = static_cast<long long>(v[i]) + v[j];  // 64-bit: INT_MIN and INT_MAX do not wrap
    for (unsigned long long k = j + 1; k < n; ++k)
      if (a + v[k] == 0) ++mine;
  }
  counts[t] = mine;
  __syncthreads();
  unsigned p = 1;
  while (p < nt) p *= 2;
  for (unsigned s = p / 2; s > 0; s /= 2) {
    if (t < s && t + s < nt) counts[t] += counts[t + s];
    __syncthreads();
  }
  if (t == 0 && counts[0]) atomicAdd(&count[0], counts[0]);
}
