// template: count3
// expect: correct
// A private count per thread over a grid-stride loop, one atomic per thread.
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  unsigned long long mine = 0;
  for (unsigned long long i = cv::global_index(); i < data.size; i += cv::grid_threads())
    if (data[i] % 3 == 0) ++mine;
  if (mine) atomicAdd(&count[0], mine);
}
