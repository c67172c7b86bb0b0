// template: pi
// expect: correct
// Every lane runs the same number of rounds (the test is inside), so the warp
// can vote each round; lane 0 adds the warp's count.
extern "C" __global__ void pi_samples(unsigned long long n, unsigned long long seed,
                                      cv::Span<unsigned long long> hits) {
  const unsigned long long stride = cv::grid_threads();
  const unsigned long long start = cv::global_index();
  const unsigned long long lane0 = start - (threadIdx.x & 31);
  unsigned long long mine = 0;
  for (unsigned long long base = lane0; base < n; base += stride) {
    const unsigned long long k = base + (threadIdx.x & 31);
    const unsigned votes = __ballot_sync(0xffffffffu, k < n && cv::sample_inside(seed, k));
    mine += __popc(votes);
  }
  if ((threadIdx.x & 31) == 0 && mine) atomicAdd(&hits[0], mine);
}
