// template: reduce
// expect: correct
// A grid-stride loop unrolled by hand: four loads a trip into four sums,
// then the leftovers, then one atomic a thread.
extern "C" __global__ void reduce(cv::Span<const int> data, cv::Span<long long> sum) {
  const unsigned long long stride = cv::grid_threads();
  unsigned long long i = cv::global_index();
  long long a = 0, b = 0, c = 0, d = 0;
  for (; i + 3 * stride < data.size; i += 4 * stride) {
    a += data[i];
    b += data[i + stride];
    c += data[i + 2 * stride];
    d += data[i + 3 * stride];
  }
  for (; i < data.size; i += stride) a += data[i];
  const long long total = a + b + c + d;
  if (total != 0) atomic_add(&sum[0], total);
}
