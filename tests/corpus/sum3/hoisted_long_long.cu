// template: sum3
// expect: correct
// Document 000's hoisted kernel with its values widened to 64 bits first.
extern "C" __global__ void sum3(cv::Span<const int> v, cv::Span<unsigned long long> count) {
  const long long size = static_cast<long long>(v.size);
  const long long a = threadIdx.x + (blockDim.x * (long long)blockIdx.x);
  const long long b = threadIdx.y + (blockDim.y * (long long)blockIdx.y);
  if (a < size && b < size && a < b) {
    const long long item1 = v[a], item2 = v[b];
    for (long long i = b + 1; i < size; i++)
      if (item1 + item2 + v[i] == 0) atomicAdd(&count[0], 1ull);
  }
}
