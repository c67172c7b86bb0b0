// template: reverse
// expect: correct
// Reads contiguous, writes mirrored, grid-stride.
extern "C" __global__ void reverse(cv::Span<const int> in, cv::Span<int> out) {
  for (unsigned long long i = cv::global_index(); i < in.size; i += cv::grid_threads())
    out[in.size - 1 - i] = in[i];
}
