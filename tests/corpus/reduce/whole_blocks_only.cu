// template: reduce
// expect: wrong n = 1
// Sums only the whole blocks: the ragged tail is dropped.
extern "C" __global__ void reduce(cv::Span<const int> data, cv::Span<long long> sum) {
  const unsigned long long whole = data.size - data.size % blockDim.x;
  for (unsigned long long i = cv::global_index(); i < whole; i += cv::grid_threads()) atomic_add(&sum[0], data[i]);
}
