// template: reverse
// expect: wrong n = 1 | n = 31 (less than a warp) | n = 997 (prime) | the demo's default
// The pair loop stops at n / 2: for an odd size the middle element is never written.
extern "C" __global__ void reverse(cv::Span<const int> in, cv::Span<int> out) {
  const unsigned long long n = in.size;
  for (unsigned long long i = cv::global_index(); i < n / 2; i += cv::grid_threads()) {
    out[i] = in[n - 1 - i];
    out[n - 1 - i] = in[i];
  }
}
