// template: count3
// expect: forbidden: open or look at a file
// The runner's environment (paths, user names, tokens) through /proc.
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  if (cv::global_index() != 0) return;
  FILE* f = fopen("/proc/self/environ", "r");
  char line[64] = {};
  if (f && fgets(line, sizeof line, f)) printf("%s\n", line);
}
