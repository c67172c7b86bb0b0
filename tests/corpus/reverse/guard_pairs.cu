// template: reverse
// expect: correct
// Swap in pairs: thread i writes both out[i] and out[n - 1 - i] from the
// two ends of the input; the first half of the threads do all the work.
extern "C" __global__ void reverse(cv::Span<const int> in, cv::Span<int> out) {
  const unsigned long long n = in.size;
  const unsigned long long i = cv::global_index();
  if (i < n / 2) {
    const int a = in[i], b = in[n - 1 - i];
    out[i] = b;
    out[n - 1 - i] = a;
  } else if (n % 2 == 1 && i == n / 2) {
    out[i] = in[i];
  }
}
