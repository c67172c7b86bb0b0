// template: corelated
// expect: correct
// A thread per id of row r looks it up in row s by binary search (rows are
// sorted); a warp-free count in shared memory, one atomic per co-related pair.
extern "C" __global__ void corelated(cv::Span<const int> ids, cv::Span<const unsigned> offsets,
                                     int threshold, cv::Span<unsigned long long> count) {
  __shared__ unsigned hits;
  const unsigned r = blockIdx.x, s = blockIdx.y;
  if (r >= s) return;
  if (threadIdx.x == 0) hits = 0;
  __syncthreads();
  const unsigned b0 = offsets[s], b1 = offsets[s + 1];
  for (unsigned x = offsets[r] + threadIdx.x; x < offsets[r + 1]; x += blockDim.x) {
    const int id = ids[x];
    unsigned lo = b0, hi = b1;  // [lo, hi): empty when the row is
    while (lo < hi) {
      const unsigned mid = lo + (hi - lo) / 2;
      if (ids[mid] < id) lo = mid + 1;
      else hi = mid;
    }
    if (lo < b1 && ids[lo] == id) atomicAdd(&hits, 1u);
  }
  __syncthreads();
  if (threadIdx.x == 0 && static_cast<int>(hits) > threshold) atomicAdd(&count[0], 1ull);
}
