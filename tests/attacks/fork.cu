// template: count3
// expect: forbidden: start a new process
extern "C" int fork(void);
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  if (cv::global_index() == 0) count[0] = static_cast<unsigned long long>(fork());
}
