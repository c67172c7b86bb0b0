// template: count3
// Wrong on purpose (the challenge tests): counts the multiples of 2, not 3.
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  unsigned long long mine = 0;
  for (unsigned long long i = cv::global_index(); i < data.size; i += cv::grid_threads())
    mine += data[i] % 2 == 0;
  if (mine) atomicAdd(&count[0], mine);
}
