// template: count3
// expect: wrong the demo's default
// Forgot to write anything.
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  const unsigned long long i = cv::global_index();
  (void)i;
}
