// template: sum3
// Example: document 000's final kernel: each thread counts its triples in its
// own slot of a shared-memory array, thread (0, 0) adds the block's slots and
// makes one atomicAdd for the whole block. The document sizes the array for a
// 16 x 32 block; here it is the dynamic shared memory the app gives every
// block (threads * 8 bytes), so any block shape works.
extern "C" __global__ void sum3(cv::Span<const int> v, cv::Span<unsigned long long> count) {
  extern __shared__ unsigned long long countArray[];
  const unsigned slot = threadIdx.y * blockDim.x + threadIdx.x;
  const long long aIndex = threadIdx.x + (blockDim.x * blockIdx.x);
  const long long bIndex = threadIdx.y + (blockDim.y * blockIdx.y);
  const long long size = static_cast<long long>(v.size);
  countArray[slot] = 0;
  __syncthreads();
  if (aIndex < size && bIndex < size && bIndex > aIndex) {
    // The document's are int; in 64 bits no sum near INT_MAX wraps to 0.
    const long long item1 = v[aIndex];
    const long long item2 = v[bIndex];
    for (long long i = bIndex + 1; i < size; i++)
      if (item1 + item2 + v[i] == 0) countArray[slot]++;
  }
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    unsigned long long total = 0;
    for (unsigned i = 0; i < blockDim.x * blockDim.y; i++) total += countArray[i];
    if (total > 0) atomicAdd(&count[0], total);
  }
}
