// template: count3
// expect: wrong the demo's default
// The value as unsigned: -3 becomes 4294967293, which is not a multiple of 3.
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  const unsigned long long i = cv::global_index();
  if (i < data.size && static_cast<unsigned>(data[i]) % 3u == 0) atomicAdd(&count[0], 1ull);
}
