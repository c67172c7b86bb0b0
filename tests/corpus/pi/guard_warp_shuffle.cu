// template: pi
// expect: correct
// 64 samples a thread, a warp-shuffle sum (whole warps), a shared slot a
// warp, one atomic a block.
extern "C" __global__ void pi_samples(unsigned long long n, unsigned long long seed,
                                      cv::Span<unsigned long long> hits) {
  __shared__ unsigned long long warp_hits[32];
  const unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned nt = blockDim.x * blockDim.y * blockDim.z;
  const unsigned long long first = (static_cast<unsigned long long>(blockIdx.x) * nt + t) * 64;
  unsigned long long mine = 0;
  for (unsigned k = 0; k < 64; ++k)
    if (first + k < n) mine += cv::sample_inside(seed, first + k);
  if (t % 32 == 0) warp_hits[t / 32] = 0;
  if (t / 32 * 32 + 32 <= nt) {
    for (int o = 16; o > 0; o /= 2) mine += __shfl_down_sync(0xffffffffu, mine, o);
    if (t % 32 == 0) warp_hits[t / 32] = mine;
  } else if (mine) {
    atomicAdd(&hits[0], mine);
  }
  __syncthreads();
  if (t == 0) {
    unsigned long long block = 0;
    for (unsigned w = 0; w < (nt + 31) / 32; ++w) block += warp_hits[w];
    if (block) atomicAdd(&hits[0], block);
  }
}
