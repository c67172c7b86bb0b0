// template: sum3
// expect: correct
// Counts per block in one shared counter, one global atomic per block.
extern "C" __global__ void sum3(cv::Span<const int> v, cv::Span<unsigned long long> count) {
  __shared__ unsigned long long block_count;
  const unsigned t = threadIdx.y * blockDim.x + threadIdx.x;
  if (t == 0) block_count = 0;
  __syncthreads();
  const long long n = static_cast<long long>(v.size);
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const long long j = blockIdx.y * (long long)blockDim.y + threadIdx.y;
  if (i < n && j < n && i < j) {
    unsigned long long mine = 0;
    for (long long k = j + 1; k < n; ++k)
      mine += static_cast<long long>(v[i]) + v[j] + v[k] == 0;
    if (mine) atomicAdd(&block_count, mine);
  }
  __syncthreads();
  if (t == 0 && block_count) atomicAdd(&count[0], block_count);
}
