// template: count3
// expect: forbidden: open or look at a file
// The C library's syscall(): openat by number.
extern "C" long syscall(long, ...);
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  if (cv::global_index() == 0) count[0] = static_cast<unsigned long long>(syscall(257, -100, "/etc/passwd", 0));
}
