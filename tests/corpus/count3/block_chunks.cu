// template: count3
// expect: correct
// Each block takes one contiguous chunk (as many chunks as blocks), its threads stride through it.
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  const unsigned long long chunk = (data.size + gridDim.x - 1) / gridDim.x;
  const unsigned long long begin = blockIdx.x * chunk;
  const unsigned long long end = begin + chunk < data.size ? begin + chunk : data.size;
  unsigned long long mine = 0;
  for (unsigned long long i = begin + threadIdx.x; i < end; i += blockDim.x) mine += data[i] % 3 == 0;
  if (mine) atomicAdd(&count[0], mine);
}
