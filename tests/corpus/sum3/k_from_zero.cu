// template: sum3
// expect: wrong the demo's default
// The third index from 0: every triple counted in several orders.
extern "C" __global__ void sum3(cv::Span<const int> v, cv::Span<unsigned long long> count) {
  const long long n = static_cast<long long>(v.size);
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const long long j = blockIdx.y * (long long)blockDim.y + threadIdx.y;
  if (i >= n || j >= n || j <= i) return;
  for (long long k = 0; k < n; ++k)
    if (k != i && k != j && static_cast<long long>(v[i]) + v[j] + v[k] == 0) atomicAdd(&count[0], 1ull);
}
