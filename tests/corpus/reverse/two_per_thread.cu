// template: reverse
// expect: correct
// Each thread swaps a pair from the two ends; the middle element of an odd
// size is written by the thread whose pair meets itself.
extern "C" __global__ void reverse(cv::Span<const int> in, cv::Span<int> out) {
  const unsigned long long n = in.size;
  for (unsigned long long i = cv::global_index(); i < (n + 1) / 2; i += cv::grid_threads()) {
    const unsigned long long j = n - 1 - i;
    out[i] = in[j];
    out[j] = in[i];
  }
}
