// template: reduce
// expect: correct
// Grid-stride sums, then a warp-shuffle reduction; lane 0 of each warp adds
// its warp's total to a shared slot, thread 0 adds the block's slots.
extern "C" __global__ void reduce(cv::Span<const int> data, cv::Span<long long> sum) {
  __shared__ long long warp_sums[32];
  const unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned nt = blockDim.x * blockDim.y * blockDim.z;
  long long mine = 0;
  for (unsigned long long i = cv::global_index(); i < data.size; i += cv::grid_threads()) mine += data[i];
  if (t / 32 * 32 + 32 <= nt) {  // a whole warp: the shuffle tree
    for (int offset = 16; offset > 0; offset /= 2) mine += __shfl_down_sync(0xffffffffu, mine, offset);
    if (t % 32 == 0) warp_sums[t / 32] = mine;
  } else if (mine != 0) {  // the last, partial warp of an odd block shape
    atomic_add(&sum[0], mine);
  }
  if (t % 32 == 0 && t / 32 * 32 + 32 > nt) warp_sums[t / 32] = 0;
  __syncthreads();
  if (t == 0) {
    long long block = 0;
    for (unsigned w = 0; w < (nt + 31) / 32; ++w) block += warp_sums[w];
    atomic_add(&sum[0], block);
  }
}
