// template: corelated
// expect: correct
// A thread per id of row r searches row s; hits go to one shared counter.
extern "C" __global__ void corelated(cv::Span<const int> ids, cv::Span<const unsigned> offsets,
                                     int threshold, cv::Span<unsigned long long> count) {
  __shared__ unsigned hits;
  const unsigned r = blockIdx.x, s = blockIdx.y;
  if (r >= s) return;  // the whole block leaves together
  const unsigned t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  if (t == 0) hits = 0;
  __syncthreads();
  for (unsigned x = offsets[r] + t; x < offsets[r + 1]; x += threads)
    for (unsigned y = offsets[s]; y < offsets[s + 1]; ++y)
      if (ids[y] == ids[x]) {
        atomicAdd(&hits, 1u);
        break;
      }
  __syncthreads();
  if (t == 0 && static_cast<int>(hits) > threshold) atomicAdd(&count[0], 1ull);
}
