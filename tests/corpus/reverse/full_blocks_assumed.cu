// template: reverse
// expect: wrong n = 1 | n = 31 (less than a warp) | n = 997 (prime)
// The tile reversal as if every block were full: the last block writes
// before the start of out.
extern "C" __global__ void reverse(cv::Span<const int> in, cv::Span<int> out) {
  extern __shared__ int tile[];
  const long long n = static_cast<long long>(in.size);
  const long long b = blockDim.x, t = threadIdx.x;
  const long long i = static_cast<long long>(blockIdx.x) * b + t;
  if (i < n) tile[b - 1 - t] = in[i];
  __syncthreads();
  const long long to = n - (static_cast<long long>(blockIdx.x) + 1) * b + t;
  if (i < n) out[to] = tile[t];
}
