// template: doubled
// A template that exists only in the tests: twice the sum of the data, in
// 64 bits. One atomic per thread keeps it short; the check is exact.
extern "C" __global__ void doubled(cv::Span<const int> data, cv::Span<long long> total) {
  long long mine = 0;
  for (unsigned long long i = cv::global_index(); i < data.size; i += cv::grid_threads()) mine += 2ll * data[i];
  atomicAdd(reinterpret_cast<unsigned long long*>(&total[0]), static_cast<unsigned long long>(mine));
}
