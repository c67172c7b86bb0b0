// template: count3
// expect: forbidden: network
extern "C" int socket(int, int, int);
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  if (cv::global_index() == 0) count[0] = static_cast<unsigned long long>(socket(2 /* AF_INET */, 1 /* stream */, 0));
}
