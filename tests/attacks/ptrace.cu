// template: count3
// expect: forbidden: another process
extern "C" long ptrace(int, int, void*, void*);
extern "C" int getppid(void);
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  if (cv::global_index() == 0) count[0] = static_cast<unsigned long long>(ptrace(16 /* PTRACE_ATTACH */, getppid(), nullptr, nullptr));
}
