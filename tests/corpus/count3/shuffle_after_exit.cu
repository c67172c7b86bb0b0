// template: count3
// expect: wrong n = 1 | n = 31 (less than a warp) | n = 997 (prime)
// Lanes past the data return early, then the warp shuffles with a full mask:
// the shuffle reads lanes that have exited.
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  const unsigned long long i = cv::global_index();
  if (i >= data.size) return;
  unsigned long long c = data[i] % 3 == 0;
  for (int off = 16; off > 0; off /= 2) c += __shfl_down_sync(0xffffffffu, c, off);
  if ((threadIdx.x & 31) == 0) atomicAdd(&count[0], c);
}
