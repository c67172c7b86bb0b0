// template: sum3
// Example: document 000's first kernel. x and y of the 2D grid pick the pair
// (a, b); the thread walks every third index past b and adds 1 to the global
// count with atomicAdd for each triple that sums to 0.
extern "C" __global__ void sum3(cv::Span<const int> v, cv::Span<unsigned long long> count) {
  const long long aIndex = threadIdx.x + (blockDim.x * blockIdx.x);
  const long long bIndex = threadIdx.y + (blockDim.y * blockIdx.y);
  const long long size = static_cast<long long>(v.size);
  if (aIndex < size - 2 && bIndex < size - 1 && bIndex > aIndex) {
    for (long long i = bIndex + 1; i < size; i++) {
      // The document sums in int; in 64 bits no sum near INT_MAX wraps to 0.
      if (static_cast<long long>(v[aIndex]) + v[bIndex] + v[i] == 0) atomicAdd(&count[0], 1ull);
    }
  }
}
