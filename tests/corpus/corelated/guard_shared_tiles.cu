// template: corelated
// expect: correct
// Row s is staged through shared memory a tile at a time (the block's
// threads each bring one id); every thread searches the tile for its ids of
// row r, which it keeps in registers (at most 4; more are searched in global
// memory). Hits counted with one shared atomic a thread.
extern "C" __global__ void corelated(cv::Span<const int> ids, cv::Span<const unsigned> offsets,
                                     int threshold, cv::Span<unsigned long long> count) {
  extern __shared__ int tile[];  // one int a thread
  __shared__ unsigned block_hits;
  const unsigned r = blockIdx.x, s = blockIdx.y;
  if (r >= s) return;
  const unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned nt = blockDim.x * blockDim.y * blockDim.z;
  const unsigned a0 = offsets[r], a1 = offsets[r + 1], b0 = offsets[s], b1 = offsets[s + 1];
  if (t == 0) block_hits = 0;
  int mine[4];
  bool hit[4] = {false, false, false, false};
  unsigned own = 0;
  for (unsigned a = a0 + t; a < a1 && own < 4; a += nt) mine[own++] = ids[a];
  for (unsigned base = b0; base < b1; base += nt) {
    __syncthreads();
    if (base + t < b1) tile[t] = ids[base + t];
    __syncthreads();
    const unsigned in_tile = b1 - base < nt ? b1 - base : nt;
    for (unsigned q = 0; q < own; ++q)
      for (unsigned k = 0; k < in_tile; ++k)
        if (tile[k] == mine[q]) {
          hit[q] = true;
          break;
        }
  }
  unsigned found = 0;
  for (unsigned q = 0; q < own; ++q) found += hit[q];
  for (unsigned a = a0 + t + 4 * nt; a < a1; a += nt) {  // ids beyond the four kept
    unsigned b = b0;
    while (b < b1 && ids[b] != ids[a]) ++b;
    found += b < b1;
  }
  __syncthreads();
  if (found) atomicAdd(&block_hits, found);
  __syncthreads();
  if (t == 0 && static_cast<int>(block_hits) > threshold) atomicAdd(&count[0], 1ull);
}
