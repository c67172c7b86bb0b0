// template: count3
// expect: forbidden: open or look at a file
// Whether a file exists and its size, without opening it.
struct stat;
extern "C" int stat(const char*, struct stat*);
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  alignas(16) static char buf[256];
  if (cv::global_index() == 0) count[0] = static_cast<unsigned long long>(stat("/etc/passwd", reinterpret_cast<struct stat*>(buf)));
}
