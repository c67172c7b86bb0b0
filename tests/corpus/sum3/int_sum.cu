// template: sum3
// expect: wrong INT_MIN and INT_MAX among the values
// Sums in int, as document 000 writes them: INT_MAX + INT_MAX + 2 wraps to 0.
extern "C" __global__ void sum3(cv::Span<const int> v, cv::Span<unsigned long long> count) {
  const long long n = static_cast<long long>(v.size);
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const long long j = blockIdx.y * (long long)blockDim.y + threadIdx.y;
  if (i >= n || j >= n || j <= i) return;
  for (long long k = j + 1; k < n; ++k)
    if (v[i] + v[j] + v[k] == 0) atomicAdd(&count[0], 1ull);
}
