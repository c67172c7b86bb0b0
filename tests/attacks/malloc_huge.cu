// template: count3
// expect: forbidden: allocate
// 100 GB at once.
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  if (cv::global_index() != 0) return;
  char* p = static_cast<char*>(malloc(100ull << 30));
  if (p) p[12345] = 1, count[0] = 1;
}
