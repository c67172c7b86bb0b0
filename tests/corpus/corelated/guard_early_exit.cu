// template: corelated
// expect: correct
// Block (r, s), r < s: each thread takes ids of row r by a stride and looks
// for each in row s, leaving the search at the first match; the block adds
// its hits with a shared-memory tree.
extern "C" __global__ void corelated(cv::Span<const int> ids, cv::Span<const unsigned> offsets,
                                     int threshold, cv::Span<unsigned long long> count) {
  extern __shared__ unsigned hits[];
  const unsigned r = blockIdx.x, s = blockIdx.y;
  if (r >= s) return;
  const unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned nt = blockDim.x * blockDim.y * blockDim.z;
  unsigned found = 0;
  for (unsigned a = offsets[r] + t; a < offsets[r + 1]; a += nt) {
    const int id = ids[a];
    unsigned b = offsets[s];
    const unsigned end = offsets[s + 1];
    while (b < end && ids[b] != id) ++b;
    found += b < end;
  }
  hits[t] = found;
  __syncthreads();
  unsigned p = 1;
  while (p < nt) p *= 2;
  for (unsigned h = p / 2; h > 0; h /= 2) {
    if (t < h && t + h < nt) hits[t] += hits[t + h];
    __syncthreads();
  }
  if (t == 0 && static_cast<int>(hits[0]) > threshold) atomicAdd(&count[0], 1ull);
}
