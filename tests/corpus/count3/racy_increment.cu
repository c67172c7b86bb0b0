// template: count3
// expect: wrong the demo's default
// races: lost updates on count[0] (global, every thread of every block)
// Document 001's race: count[0]++ is a read, an add and a write; threads
// that read the same old value lose each other's updates.
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  const unsigned long long i = cv::global_index();
  if (i < data.size && data[i] % 3 == 0) count[0]++;
}
