// template: count3
// expect: time-out
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  volatile unsigned long long spin = 0;
  for (;;) ++spin;
}
