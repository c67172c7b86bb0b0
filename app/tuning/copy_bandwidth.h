#pragma once
// The device's copy bandwidth, measured on demand for the device panel: a
// cudaMemcpyAsync device-to-device of `bytes`, the same call `cudaviz bench
// reverse --variant copy` times (reverse::run_gpu, Variant::Copy), timed with
// CUDA events after warm-up; the median of `reps`. Bytes read plus bytes
// written count, as for every gb_per_s in this project.
namespace cv::tuning {

struct CopyBandwidth {
  double gb_per_s = 0;  // (read + written) / median time
  double ms_median = 0;
  long long bytes = 0;  // copied each repetition
  int reps = 0;
};

// Throws CudaError (e.g. cudaErrorMemoryAllocation for 2 x `bytes`).
CopyBandwidth measure_copy_bandwidth(long long bytes = 1ll << 30, int reps = 9);

}  // namespace cv::tuning
