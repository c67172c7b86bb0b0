// template: count3
// expect: wrong n = 1
// Off by one: i <= size reads one element past the data.
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  const unsigned long long i = cv::global_index();
  if (i <= data.size && data[i] % 3 == 0) atomicAdd(&count[0], 1ull);
}
