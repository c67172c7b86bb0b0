// template: reduce
// The sum of the lab's data, exact in 64 bits (document 001's reduction). The
// app zeroes sum[0], launches a 1D grid of ceil(n / threads) blocks of your
// block shape and checks sum[0] against the CPU's sum.
// This version: each thread sums a grid-stride slice, the block adds its
// threads' sums in shared memory (a tree), one thread adds the block's total.
extern "C" __global__ void reduce(cv::Span<const int> data, cv::Span<long long> sum) {
  __shared__ long long partial[1024];
  const unsigned t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  long long mine = 0;
  for (unsigned long long i = cv::global_index(); i < data.size; i += cv::grid_threads()) mine += data[i];
  partial[t] = mine;
  __syncthreads();
  unsigned half = 1;
  while (half * 2 < threads) half *= 2;  // the largest power of two below threads
  for (; half > 0; half /= 2) {
    if (t < half && t + half < threads) partial[t] += partial[t + half];
    __syncthreads();
  }
  if (t == 0) atomic_add(&sum[0], partial[0]);
}
