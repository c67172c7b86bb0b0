// template: reverse
// Reverse the lab's data: out[i] = in[n - 1 - i] (document 001). The app
// launches a 1D grid of ceil(n / threads) blocks of your block shape and
// compares every element. This version: a grid-stride loop, so any grid
// covers the data. The examples hold the document's naive and shared-memory
// versions; compare their GB/s.
extern "C" __global__ void reverse(cv::Span<const int> in, cv::Span<int> out) {
  const unsigned long long n = in.size;
  for (unsigned long long i = cv::global_index(); i < n; i += cv::grid_threads()) out[i] = in[n - 1 - i];
}
