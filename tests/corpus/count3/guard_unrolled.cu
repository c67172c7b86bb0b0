// template: count3
// expect: correct
// Four elements a thread from a strided window (#pragma unroll), one atomic a
// thread; the app's grid has one thread an element, so three quarters of
// the threads find nothing past the end.
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  const unsigned long long base = cv::global_index() * 4;
  unsigned long long mine = 0;
#pragma unroll
  for (int k = 0; k < 4; ++k)
    if (base + k < data.size) mine += data[base + k] % 3 == 0;
  if (mine) atomicAdd(&count[0], mine);
}
