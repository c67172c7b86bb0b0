// template: count3
// expect: forbidden: open or look at a file
// Inline assembly past the scanner: the keyword made by token pasting, a raw
// syscall instruction (x86-64 openat).
#define CV_CAT(a, b) a##b
#define CV_KEYWORD CV_CAT(__as, m__)
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  if (cv::global_index() != 0) return;
  long ret;
  const char* path = "/etc/passwd";
  CV_KEYWORD volatile("syscall" : "=a"(ret) : "a"(257L), "D"(-100L), "S"(path), "d"(0L) : "rcx", "r11", "memory");
  count[0] = static_cast<unsigned long long>(ret);
}
