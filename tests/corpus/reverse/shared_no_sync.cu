// template: reverse
// expect: wrong the demo's default
// races: no barrier between the writes of tile[] and the reads
// The shared tile without its __syncthreads(): threads read slots not yet written.
extern "C" __global__ void reverse(cv::Span<const int> in, cv::Span<int> out) {
  extern __shared__ int tile[];
  const long long n = static_cast<long long>(in.size);
  const long long b = blockDim.x, t = threadIdx.x;
  const long long first = static_cast<long long>(blockIdx.x) * b;
  const long long count = n - first < b ? n - first : b;
  if (t < count) tile[count - 1 - t] = in[first + t];
  if (t < count) out[n - first - count + t] = tile[t];
}
