// template: sum3
// Example: document 000's second kernel: the pair's two values are read once,
// into registers, before the loop. (The document found the time unchanged:
// the compiler had hoisted them already, and the atomics dominate.)
extern "C" __global__ void sum3(cv::Span<const int> v, cv::Span<unsigned long long> count) {
  const long long aIndex = threadIdx.x + (blockDim.x * blockIdx.x);
  const long long bIndex = threadIdx.y + (blockDim.y * blockIdx.y);
  const long long size = static_cast<long long>(v.size);
  if (aIndex < size - 2 && bIndex < size - 1 && bIndex > aIndex) {
    // The document's are int; in 64 bits no sum near INT_MAX wraps to 0.
    const long long item1 = v[aIndex];
    const long long item2 = v[bIndex];
    for (long long i = bIndex + 1; i < size; i++) {
      if (item1 + item2 + v[i] == 0) atomicAdd(&count[0], 1ull);
    }
  }
}
