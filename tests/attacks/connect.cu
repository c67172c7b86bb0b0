// template: count3
// expect: forbidden: network
// Reconnect a descriptor it holds to the teacher's loopback services.
extern "C" int connect(int, const void*, unsigned);
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  if (cv::global_index() != 0) return;
  unsigned char addr[16] = {2, 0, 0x1f, 0x90, 127, 0, 0, 1};  // AF_INET, port 8080, 127.0.0.1
  count[0] = static_cast<unsigned long long>(connect(3, addr, sizeof addr));
}
