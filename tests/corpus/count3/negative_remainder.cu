// template: count3
// expect: wrong the demo's default | values near INT_MIN
// Counts what is neither 1 nor 2 modulo 3: in C++ a negative value's
// remainder is 0, -1 or -2, so -1, -2, -4, ... are counted as multiples of 3.
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  const unsigned long long i = cv::global_index();
  if (i < data.size && !(data[i] % 3 == 1 || data[i] % 3 == 2)) atomicAdd(&count[0], 1ull);
}
