// template: count3
// expect: forbidden: send a signal
extern "C" int kill(int, int);
extern "C" int getppid(void);
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  if (cv::global_index() == 0) count[0] = static_cast<unsigned long long>(kill(getppid(), 9));
}
