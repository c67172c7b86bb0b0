// template: count3
// expect: load: start a new process
// A global's dynamic initialiser runs at load time.
extern "C" int fork(void);
static int forked = fork();
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  if (cv::global_index() == 0) count[0] = static_cast<unsigned long long>(forked);
}
