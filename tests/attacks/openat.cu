// template: count3
// expect: forbidden: open or look at a file
extern "C" int openat(int, const char*, int, ...);
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  if (cv::global_index() == 0) count[0] = static_cast<unsigned long long>(openat(-100, "/etc/shadow", 0));
}
