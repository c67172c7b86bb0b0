#pragma once
// What a barrier and a warp shuffle cost per emulated thread (the bench
// reports them): a micro-kernel built with the host compiler runs R rounds of
// __syncthreads() (or __shfl_xor_sync) in a 256-thread block on the calling
// thread; the cost is its CPU time beyond the same launch with no rounds, per
// thread and round; on the fast path (loop fission) and as fibers.
#include <string>

namespace cv::emu {

struct SyncCosts {
  double barrier_ns_per_thread = 0;  // the fast path where there is one (else fibers)
  double shuffle_ns_per_thread = 0;
  double fiber_barrier_ns_per_thread = 0;  // as fibers
  double fiber_shuffle_ns_per_thread = 0;
  unsigned threads = 0, rounds = 0;
  std::string error;  // the build failed: why
};

SyncCosts measure_sync_costs(const std::string& cxx = "c++", const std::string& tmpdir = "/tmp");

}  // namespace cv::emu
