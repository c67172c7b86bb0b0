// template: count3
// expect: correct
// Two elements a thread (the grid has twice the threads it needs: half idle).
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  const unsigned long long i = 2 * cv::global_index();
  unsigned long long mine = 0;
  if (i < data.size && data[i] % 3 == 0) ++mine;
  if (i + 1 < data.size && data[i + 1] % 3 == 0) ++mine;
  if (mine) atomicAdd(&count[0], mine);
}
