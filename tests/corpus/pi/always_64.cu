// template: pi
// expect: wrong n = 1
// 64 samples a thread, without asking whether they exist.
extern "C" __global__ void pi_samples(unsigned long long n, unsigned long long seed,
                                      cv::Span<unsigned long long> hits) {
  const unsigned long long first = cv::global_index() * 64;
  unsigned long long mine = 0;
  for (unsigned long long k = first; k < first + 64; ++k) mine += cv::sample_inside(seed, k);
  if (mine) atomicAdd(&hits[0], mine);
}
