// template: sum3
// expect: correct
// Thread (i, j) counts the k > j with v[i] + v[j] + v[k] == 0, the k loop
// split in two halves (the second counting down), one atomic a thread.
extern "C" __global__ void sum3(cv::Span<const int> v, cv::Span<unsigned long long> count) {
  const long long n = static_cast<long long>(v.size);
  const long long i = blockIdx.x * blockDim.x + threadIdx.x;
  const long long j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n || j <= i) return;
  const long long want = -(static_cast<long long>(v[i]) + v[j]);  // 64-bit: INT_MIN and INT_MAX do not wrap
  const long long mid = j + 1 + (n - j - 1) / 2;
  unsigned long long mine = 0;
  for (long long k = j + 1; k < mid; ++k) mine += v[k] == want;
  for (long long k = n - 1; k >= mid; --k) mine += v[k] == want;
  if (mine) atomicAdd(&count[0], mine);
}
