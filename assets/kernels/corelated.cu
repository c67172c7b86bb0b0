// template: corelated
// Co-related ids (document 002): count the pairs of rows (r < s) that share
// more than `threshold` ids. As in the document's exp14, block (x, y) compares
// row r = x with row s = y, a thread per id of row r searching row s; here
// each thread counts its hits in shared memory, the block adds them, and one
// thread adds 1 to count[0] when the pair is co-related.
extern "C" __global__ void corelated(cv::Span<const int> ids, cv::Span<const unsigned> offsets,
                                     int threshold, cv::Span<unsigned long long> count) {
  extern __shared__ unsigned found[];
  const unsigned r = blockIdx.x, s = blockIdx.y;
  if (r >= s) return;  // each pair once: the diagonal and the lower triangle idle
  const unsigned t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  const unsigned a0 = offsets[r], a1 = offsets[r + 1], b0 = offsets[s], b1 = offsets[s + 1];
  unsigned mine = 0;
  for (unsigned x = a0 + t; x < a1; x += threads) {
    const int id = ids[x];
    for (unsigned y = b0; y < b1; ++y)
      if (ids[y] == id) {
        ++mine;
        break;
      }
  }
  found[t] = mine;
  __syncthreads();
  if (t == 0) {
    unsigned shared_ids = 0;
    for (unsigned k = 0; k < threads; ++k) shared_ids += found[k];
    if (static_cast<int>(shared_ids) > threshold) atomicAdd(&count[0], 1ull);
  }
}
