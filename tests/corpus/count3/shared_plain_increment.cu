// template: count3
// expect: wrong the demo's default
// races: lost updates on the shared counter (every thread of a block)
// A block's counter in shared memory, but incremented with a plain ++.
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  __shared__ unsigned long long block_hits;
  if (threadIdx.x == 0) block_hits = 0;
  __syncthreads();
  const unsigned long long i = cv::global_index();
  if (i < data.size && data[i] % 3 == 0) block_hits++;
  __syncthreads();
  if (threadIdx.x == 0 && block_hits) atomicAdd(&count[0], block_hits);
}
