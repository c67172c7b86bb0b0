// template: reduce
// expect: wrong the demo's default
// A float total: 24 bits of mantissa cannot hold sums of 32-bit values.
extern "C" __global__ void reduce(cv::Span<const int> data, cv::Span<long long> sum) {
  float mine = 0.f;
  for (unsigned long long i = cv::global_index(); i < data.size; i += cv::grid_threads()) mine += data[i];
  atomic_add(&sum[0], static_cast<long long>(mine));
}
