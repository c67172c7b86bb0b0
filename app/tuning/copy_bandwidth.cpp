#include "tuning/copy_bandwidth.h"

#include <cstdint>

#include "bench/bench.h"
#include "common/cuda_resources.h"
#include "labs/reverse/reverse.h"

namespace cv::tuning {

CopyBandwidth measure_copy_bandwidth(long long bytes, int reps) {
  const size_t n = static_cast<size_t>(bytes) / sizeof(int32_t);
  CudaStream stream;
  DeviceBuffer<int32_t> in(n), out(n);
  // Contents do not matter for a copy, but touch both buffers once so the
  // first timed copy does not pay for first-use page mapping.
  CV_CUDA(cudaMemsetAsync(in.get(), 1, in.bytes(), stream.get()));
  CV_CUDA(cudaMemsetAsync(out.get(), 0, out.bytes(), stream.get()));
  const BlockShape unused{256, 1, 1};  // the copy variant launches no kernel
  const bench::Stats s = bench::time_cuda(
      [&](cudaStream_t st) {
        reverse::run_gpu(reverse::Variant::Copy, in.get(), out.get(), n, unused, st);
      },
      2, reps, stream.get());
  CopyBandwidth r;
  r.bytes = static_cast<long long>(n * sizeof(int32_t));
  r.reps = s.reps;
  r.ms_median = s.median_ms;
  r.gb_per_s =
      s.median_ms > 0 ? 2.0 * static_cast<double>(r.bytes) / (s.median_ms * 1e-3) * 1e-9 : 0;
  return r;
}

}  // namespace cv::tuning
