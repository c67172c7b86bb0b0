// template: count3
// Example: document 001's shared-memory count. Each block counts in shared memory
// (fast atomics on the SM), then one thread adds the block's count to the
// global counter: one global atomic per block instead of one per hit.
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  __shared__ unsigned int block_count;
  const unsigned t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  if (t == 0) block_count = 0;
  __syncthreads();
  const unsigned long long i = cv::global_index();
  if (i < data.size && data[i] % 3 == 0) atomicAdd(&block_count, 1u);
  __syncthreads();
  if (t == 0) atomicAdd(&count[0], static_cast<unsigned long long>(block_count));
}
