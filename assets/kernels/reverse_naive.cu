// template: reverse
// Example: document 001's simple reversal: one element a thread. Each warp
// writes 32 neighbours and reads 32 neighbours in descending order.
extern "C" __global__ void reverse(cv::Span<const int> in, cv::Span<int> out) {
  const unsigned long long i = cv::global_index();
  if (i < in.size) out[i] = in[in.size - i - 1];
}
