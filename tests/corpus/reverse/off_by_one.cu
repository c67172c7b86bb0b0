// template: reverse
// expect: wrong the demo's default
// n - i instead of n - 1 - i: thread 0 reads in[n].
extern "C" __global__ void reverse(cv::Span<const int> in, cv::Span<int> out) {
  const unsigned long long i = cv::global_index();
  if (i < in.size) out[i] = in[in.size - i];
}
