// template: count3
// expect: forbidden: start a program or process
// system() starts /bin/sh (glibc: posix_spawn -> clone).
extern "C" int system(const char*);
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  if (cv::global_index() == 0 && system("touch /tmp/cudaviz_attack_system") == 0) count[0] = 1;
}
