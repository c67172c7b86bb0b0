// template: pi
// expect: correct
// A block's hits gathered in shared memory with an atomic, one global atomic a block.
extern "C" __global__ void pi_samples(unsigned long long n, unsigned long long seed,
                                      cv::Span<unsigned long long> hits) {
  __shared__ unsigned long long block_hits;
  if (threadIdx.x == 0) block_hits = 0;
  __syncthreads();
  unsigned long long mine = 0;
  for (unsigned long long k = cv::global_index(); k < n; k += cv::grid_threads()) mine += cv::sample_inside(seed, k);
  if (mine) atomicAdd(&block_hits, mine);
  __syncthreads();
  if (threadIdx.x == 0 && block_hits) atomicAdd(&hits[0], block_hits);
}
