// template: reverse
// expect: correct
extern "C" __global__ void reverse(cv::Span<const int> in, cv::Span<int> out) {
  const unsigned long long i = cv::global_index();
  if (i < in.size) out[i] = in[in.size - 1 - i];
}
