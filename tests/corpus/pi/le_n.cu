// template: pi
// expect: wrong the demo's default
// Off by one: k <= n counts sample n, one past the last.
extern "C" __global__ void pi_samples(unsigned long long n, unsigned long long seed,
                                      cv::Span<unsigned long long> hits) {
  unsigned long long mine = 0;
  for (unsigned long long k = cv::global_index(); k <= n; k += cv::grid_threads()) mine += cv::sample_inside(seed, k);
  if (mine) atomicAdd(&hits[0], mine);
}
