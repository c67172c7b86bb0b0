// template: reverse
// expect: correct
// Half the threads each write a mirrored pair (the middle one once when n is odd).
extern "C" __global__ void reverse(cv::Span<const int> in, cv::Span<int> out) {
  const unsigned long long n = in.size, i = cv::global_index();
  if (i >= (n + 1) / 2) return;
  out[i] = in[n - 1 - i];
  out[n - 1 - i] = in[i];
}
