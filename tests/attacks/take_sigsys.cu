// template: count3
// expect: forbidden: take over a signal
// Catch the sandbox's own signal, then try a file.
extern "C" void (*signal(int, void (*)(int)))(int);
static void ignore(int) {}
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  if (cv::global_index() != 0) return;
  signal(31 /* SIGSYS */, ignore);
  count[0] = fopen("/etc/passwd", "r") != nullptr;
}
