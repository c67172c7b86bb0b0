// template: count3
// expect: correct
// A grid-stride count: each thread counts its slice, one atomic a thread.
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  unsigned long long mine = 0;
  for (unsigned long long i = cv::global_index(); i < data.size; i += cv::grid_threads())
    mine += data[i] % 3 == 0;
  if (mine) atomicAdd(&count[0], mine);
}
