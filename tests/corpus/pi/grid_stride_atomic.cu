// template: pi
// expect: correct
extern "C" __global__ void pi_samples(unsigned long long n, unsigned long long seed,
                                      cv::Span<unsigned long long> hits) {
  for (unsigned long long k = cv::global_index(); k < n; k += cv::grid_threads())
    if (cv::sample_inside(seed, k)) atomicAdd(&hits[0], 1ull);
}
