// template: pi
// expect: wrong the demo's default
// races: lost updates on hits[0] (global, every thread of every block)
// Each thread adds its count with a plain +=: threads race on hits[0] and lose updates.
extern "C" __global__ void pi_samples(unsigned long long n, unsigned long long seed,
                                      cv::Span<unsigned long long> hits) {
  unsigned long long mine = 0;
  for (unsigned long long k = cv::global_index(); k < n; k += cv::grid_threads()) mine += cv::sample_inside(seed, k);
  hits[0] += mine;
}
