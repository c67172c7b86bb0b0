// template: count3
// expect: correct
// A block's hits in one shared counter, then one global atomic per block.
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  __shared__ unsigned long long block_hits;
  if (threadIdx.x == 0) block_hits = 0;
  __syncthreads();
  const unsigned long long i = cv::global_index();
  if (i < data.size && data[i] % 3 == 0) atomicAdd(&block_hits, 1ull);
  __syncthreads();
  if (threadIdx.x == 0 && block_hits) atomicAdd(&count[0], block_hits);
}
