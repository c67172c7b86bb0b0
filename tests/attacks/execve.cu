// template: count3
// expect: forbidden: run a program
extern "C" int execve(const char*, char* const[], char* const[]);
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  char* argv[] = {const_cast<char*>("/bin/sh"), const_cast<char*>("-c"), const_cast<char*>("id"), nullptr};
  if (cv::global_index() == 0) count[0] = static_cast<unsigned long long>(execve("/bin/sh", argv, nullptr));
}
