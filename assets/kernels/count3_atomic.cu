// template: count3
// Example: document 001's fix of the race: atomicAdd makes each update one
// indivisible read-modify-write. Right, but every hit queues on one address.
extern "C" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {
  const unsigned long long i = cv::global_index();
  if (i < data.size && data[i] % 3 == 0) atomicAdd(&count[0], 1ull);
}
