// template: count3
// expect: correct
// Hits a thread into shared memory, a tree over the block (any block size,
// strides from the power of two above it), one atomic a block.
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  __shared__ unsigned hits[1024];
  const unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned nt = blockDim.x * blockDim.y * blockDim.z;
  const unsigned long long i = cv::global_index();
  hits[t] = i < data.size && data[i] % 3 == 0;
  __syncthreads();
  unsigned p = 1;
  while (p < nt) p *= 2;
  for (unsigned s = p / 2; s > 0; s /= 2) {
    if (t < s && t + s < nt) hits[t] += hits[t + s];
    __syncthreads();
  }
  if (t == 0 && hits[0]) atomicAdd(&count[0], static_cast<unsigned long long>(hits[0]));
}
