// template: count3
// expect: wrong n = 1
// Off by one the other way: the last element is never looked at.
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  for (unsigned long long i = cv::global_index(); i + 1 < data.size; i += cv::grid_threads())
    if (data[i] % 3 == 0) atomicAdd(&count[0], 1ull);
}
