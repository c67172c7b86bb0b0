// template: sum3
// expect: correct
// The k loop unrolled by 4 with #pragma unroll over a fixed inner step.
extern "C" __global__ void sum3(cv::Span<const int> v, cv::Span<unsigned long long> count) {
  const unsigned n = static_cast<unsigned>(v.size);
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n || j <= i) return;
  const long long want = -(static_cast<long long>(v[i]) + v[j]);  // 64-bit: INT_MIN and INT_MAX do not wrap
  unsigned mine = 0;
  unsigned k = j + 1;
  for (; k + 4 <= n; k += 4) {
#pragma unroll
    for (unsigned u = 0; u < 4; ++u) mine += v[k + u] == want;
  }
  for (; k < n; ++k) mine += v[k] == want;
  if (mine) atomicAdd(&count[0], static_cast<unsigned long long>(mine));
}
