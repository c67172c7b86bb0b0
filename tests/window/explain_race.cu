// template: reverse
// A reversal without its __syncthreads(): explain shows one group of races
// (scripts/gpu_windows.txt insight_explain_grouped_race; docs/emulator.md "Explain").
extern "C" __global__ void reverse(cv::Span<const int> in, cv::Span<int> out) {
  extern __shared__ int s[];
  const long long threads = blockDim.x;
  const long long t = threadIdx.x;
  const long long n = static_cast<long long>(in.size);
  const long long head = blockIdx.x * threads;
  const long long from = n - head - threads + t;
  if (from >= 0) s[threads - 1 - t] = in[from];
  if (head + t < n) out[head + t] = s[t];
}
