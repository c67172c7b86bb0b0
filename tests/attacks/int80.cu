// template: count3
// expect: forbidden: another architecture
// The 32-bit system call gate (i386 open = 5) from 64-bit code.
#define CV_CAT(a, b) a##b
#define CV_KEYWORD CV_CAT(__as, m__)
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  if (cv::global_index() != 0) return;
  long ret;
  const char* path = "/etc/passwd";
  CV_KEYWORD volatile("int $0x80" : "=a"(ret) : "a"(5L), "b"(path), "c"(0L) : "memory");
  count[0] = static_cast<unsigned long long>(ret);
}
