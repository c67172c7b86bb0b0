// template: reduce
// expect: correct
extern "C" __global__ void reduce(cv::Span<const int> data, cv::Span<long long> sum) {
  const unsigned long long i = cv::global_index();
  if (i < data.size) atomic_add(&sum[0], data[i]);
}
