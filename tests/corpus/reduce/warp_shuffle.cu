// template: reduce
// expect: correct
// Grid-stride partial sums in 64 bits, a warp's sum by shuffles (every lane
// takes part: no lane returns early), one atomic a warp.
extern "C" __global__ void reduce(cv::Span<const int> data, cv::Span<long long> sum) {
  long long mine = 0;
  for (unsigned long long i = cv::global_index(); i < data.size; i += cv::grid_threads()) mine += data[i];
  for (int off = 16; off > 0; off /= 2) mine += __shfl_down_sync(0xffffffffu, mine, off);
  if ((threadIdx.x & 31) == 0) atomic_add(&sum[0], mine);
}
