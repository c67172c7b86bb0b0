// template: sum3
// 3SUM (document 000): count the triples i < j < k whose values sum to 0. The
// app launches a 2D grid over the pairs (x -> i, y -> j), zeroes count[0] and
// checks it against the CPU's exact count.
// This version: a thread per pair (i, j) with j > i walks k past j, counts in
// a register, and adds its count with one atomic when it found any.
extern "C" __global__ void sum3(cv::Span<const int> v, cv::Span<unsigned long long> count) {
  const unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned long long j = blockIdx.y * blockDim.y + threadIdx.y;
  const unsigned long long n = v.size;
  if (i >= n || j >= n || j <= i) return;
  // In 64 bits: in int, INT_MAX + INT_MAX + 2 wraps to 0 and counts a triple that is not one.
  const long long target = -(static_cast<long long>(v[i]) + v[j]);
  unsigned long long mine = 0;
  for (unsigned long long k = j + 1; k < n; ++k) mine += v[k] == target;
  if (mine) atomicAdd(&count[0], mine);
}
