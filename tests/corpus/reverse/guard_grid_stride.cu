// template: reverse
// expect: correct
// A grid-stride reversal with 32-bit indices counting down the input.
extern "C" __global__ void reverse(cv::Span<const int> in, cv::Span<int> out) {
  const unsigned n = static_cast<unsigned>(in.size);
  const unsigned stride = static_cast<unsigned>(cv::grid_threads());
  for (unsigned i = static_cast<unsigned>(cv::global_index()); i < n; i += stride) out[i] = in[n - 1u - i];
}
