// template: reverse
// expect: correct
// A student's shared-memory reversal: each block reads the mirrored tile in
// order, reverses it in shared memory, writes its own tile in order. The
// last tile may be partial.
extern "C" __global__ void reverse(cv::Span<const int> in, cv::Span<int> out) {
  extern __shared__ int tile[];
  const long long nt = blockDim.x * blockDim.y * blockDim.z;
  const long long t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const long long n = static_cast<long long>(in.size);
  const long long start = blockIdx.x * nt;          // this block's output tile
  const long long count = n - start < nt ? n - start : nt;
  const long long src = n - start - count;          // the input tile it mirrors
  if (t < count) tile[count - 1 - t] = in[src + t];
  __syncthreads();
  if (t < count) out[start + t] = tile[t];
}
