// template: corelated
// expect: wrong the demo's default
// Every pair counted twice: (r, s) and (s, r).
extern "C" __global__ void corelated(cv::Span<const int> ids, cv::Span<const unsigned> offsets,
                                     int threshold, cv::Span<unsigned long long> count) {
  const unsigned r = blockIdx.x, s = blockIdx.y;
  if (r == s || threadIdx.x != 0) return;
  unsigned a = offsets[r], b = offsets[s], shared_ids = 0;
  while (a < offsets[r + 1] && b < offsets[s + 1]) {
    if (ids[a] == ids[b]) ++shared_ids, ++a, ++b;
    else if (ids[a] < ids[b]) ++a;
    else ++b;
  }
  if (static_cast<int>(shared_ids) > threshold) atomicAdd(&count[0], 1ull);
}
