// template: reverse
// Example: document 001's "better version": a block reads its mirrored tile
// of the input in ascending order, reverses it in shared memory, and writes
// its own tile of the output in ascending order: both accesses contiguous.
// The document's version assumes n is a multiple of the block; this one also
// handles the last, partial tile, and any block shape (the app gives each
// block threads * sizeof(int) bytes of dynamic shared memory).
extern "C" __global__ void reverse(cv::Span<const int> in, cv::Span<int> out) {
  extern __shared__ int smem[];
  const long long threads = blockDim.x * blockDim.y * blockDim.z;
  const long long t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  const long long n = static_cast<long long>(in.size);
  const long long head = blockIdx.x * threads;  // this block writes out[head, head + threads)
  const long long from = n - head - threads + t;  // ascending reads of the mirrored tile
  if (from >= 0) smem[threads - 1 - t] = in[from];
  __syncthreads();
  if (head + t < n) out[head + t] = smem[t];
}
