// template: pi
// Monte-Carlo pi (documents 000 and 003): count the samples k in [0, n) whose
// point cv::sample_inside(seed, k) lies in the quarter circle. The app
// launches a 1D grid of ceil(n / threads / 64) blocks of your block shape,
// zeroes hits[0], checks your count against the exact one and shows 4 hits / n.
// This version: 64 samples a thread, shared-memory sum per block, one atomic.
extern "C" __global__ void pi_samples(unsigned long long n, unsigned long long seed,
                                      cv::Span<unsigned long long> hits) {
  __shared__ unsigned long long block_hits[1024];
  const unsigned t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  unsigned long long mine = 0;
  for (unsigned long long k = cv::global_index(); k < n; k += cv::grid_threads())
    mine += cv::sample_inside(seed, k);
  block_hits[t] = mine;
  __syncthreads();
  if (t == 0) {
    unsigned long long sum = 0;
    for (unsigned j = 0; j < threads; ++j) sum += block_hits[j];
    atomicAdd(&hits[0], sum);
  }
}
