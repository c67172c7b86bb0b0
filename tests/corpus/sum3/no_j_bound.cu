// template: sum3
// expect: wrong the demo's default | n = 1
// Forgot j < n: threads past the last value read beyond it.
extern "C" __global__ void sum3(cv::Span<const int> v, cv::Span<unsigned long long> count) {
  const long long n = static_cast<long long>(v.size);
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const long long j = blockIdx.y * (long long)blockDim.y + threadIdx.y;
  if (i >= n || j <= i) return;
  const long long want = -(static_cast<long long>(v[i]) + v[j]);
  for (long long k = j + 1; k < n; ++k)
    if (v[k] == want) atomicAdd(&count[0], 1ull);
}
