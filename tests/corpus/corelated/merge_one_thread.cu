// template: corelated
// expect: correct
// One thread a pair merges the two sorted rows; the rest of the block idles.
extern "C" __global__ void corelated(cv::Span<const int> ids, cv::Span<const unsigned> offsets,
                                     int threshold, cv::Span<unsigned long long> count) {
  const unsigned r = blockIdx.x, s = blockIdx.y;
  if (r >= s || threadIdx.x != 0 || threadIdx.y != 0 || threadIdx.z != 0) return;
  unsigned a = offsets[r], b = offsets[s], shared_ids = 0;
  const unsigned a1 = offsets[r + 1], b1 = offsets[s + 1];
  while (a < a1 && b < b1) {
    if (ids[a] == ids[b]) ++shared_ids, ++a, ++b;
    else if (ids[a] < ids[b]) ++a;
    else ++b;
  }
  if (static_cast<int>(shared_ids) > threshold) atomicAdd(&count[0], 1ull);
}
