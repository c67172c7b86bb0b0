// template: reduce
// expect: wrong the demo's default
// races: lost updates on sum[0] (global, every thread of every block)
// Every thread adds its element to the total with a plain +=: a read, an add
// and a write, so threads that read the same old total lose each other's.
extern "C" __global__ void reduce(cv::Span<const int> data, cv::Span<long long> sum) {
  const unsigned long long i = cv::global_index();
  if (i < data.size) sum[0] += data[i];
}
