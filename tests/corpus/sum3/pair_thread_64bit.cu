// template: sum3
// expect: correct
// A thread per pair i < j, the third index past j, sums in 64 bits.
extern "C" __global__ void sum3(cv::Span<const int> v, cv::Span<unsigned long long> count) {
  const long long n = static_cast<long long>(v.size);
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const long long j = blockIdx.y * (long long)blockDim.y + threadIdx.y;
  if (i >= n || j >= n || j <= i) return;
  const long long want = -(static_cast<long long>(v[i]) + v[j]);
  unsigned long long mine = 0;
  for (long long k = j + 1; k < n; ++k) mine += v[k] == want;
  if (mine) atomicAdd(&count[0], mine);
}
