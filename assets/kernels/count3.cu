// template: count3
// Count the multiples of 3 in the lab's data (document 001). The app launches a
// 1D grid of ceil(n / threads) blocks of your block shape (x*y*z threads a
// block), zeroes count[0], and checks your answer against the CPU's.
// This version: each thread counts its elements privately (a grid-stride
// loop, so any grid covers the data), then adds its count with one atomic.
// The examples hold the document's versions: racy, atomic, shared memory.
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  unsigned long long mine = 0;
  for (unsigned long long i = cv::global_index(); i < data.size; i += cv::grid_threads())
    mine += data[i] % 3 == 0;
  if (mine) atomicAdd(&count[0], mine);
}
