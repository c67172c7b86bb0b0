// template: reduce
// expect: correct
// Two elements a thread (the second a block further on), then the block tree.
// The app launches ceil(n / threads) blocks, so the upper half of the grid
// finds nothing to load and adds zeros.
extern "C" __global__ void reduce(cv::Span<const int> data, cv::Span<long long> sum) {
  __shared__ long long partial[1024];
  const unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned nt = blockDim.x * blockDim.y * blockDim.z;
  const unsigned long long first = 2ull * blockIdx.x * nt + t;
  long long mine = 0;
  if (first < data.size) mine += data[first];
  if (first + nt < data.size) mine += data[first + nt];
  partial[t] = mine;
  __syncthreads();
  for (unsigned half = nt / 2, live = nt; half > 0; live = half + (live & 1), half = live / 2) {
    if (t < half) partial[t] += partial[t + live - half];
    __syncthreads();
  }
  if (t == 0) atomic_add(&sum[0], partial[0]);
}
