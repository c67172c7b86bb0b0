// template: reduce
// expect: wrong the demo's default
// races: lost updates on the shared total (every thread of a block)
// Every thread adds into one shared total with a plain +=: a race inside the block.
extern "C" __global__ void reduce(cv::Span<const int> data, cv::Span<long long> sum) {
  __shared__ long long total;
  if (threadIdx.x == 0) total = 0;
  __syncthreads();
  const unsigned long long i = cv::global_index();
  if (i < data.size) total += data[i];
  __syncthreads();
  if (threadIdx.x == 0) atomic_add(&sum[0], total);
}
