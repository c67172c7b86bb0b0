// template: count3
// expect: correct
// One thread an element, one atomic a hit (slow, right).
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  const unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  if (i < data.size && data[i] % 3 == 0) atomicAdd(&count[0], 1ull);
}
