// template: count3
// expect: ok: count at most 8
// 1 GiB at a time, 64 times: the address-space limit stops it (each piece is
// touched once, so the machine never holds them).
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  if (cv::global_index() != 0) return;
  unsigned long long got = 0;
  for (int k = 0; k < 64; ++k) {
    char* p = static_cast<char*>(malloc(1ull << 30));
    if (!p) break;
    p[0] = 1;
    ++got;
  }
  count[0] = got;
}
