#pragma once
// The builds of the fast variant, for nbody.cu: the one-way kernels there, and
// the pairs kernels of nbody_pairs.cu. CUDA host code only.
#include <cuda_runtime.h>

#include <vector>

namespace cv::nbody {

// Arguments of a pairs launch (see nbody_pairs_plan.h for the items).
struct PairsArgs {
  const float4* bodies;      // padded snapshot, zero-mass past n
  const uint4* items;        // one block each
  unsigned item_count;
  unsigned long long* acc;   // x, y, z sums in fixed point, `stride` apart, zeroed
  size_t stride;
  unsigned chunks;           // PairsShape::chunks
  size_t shared;             // PairsShape::shared_bytes()
  float eps2, scale;         // scale: fixed-point units a unit of acceleration (without G)
};

struct FastBuild {
  const char* name;
  unsigned bodies, max_threads, unroll;  // bodies: a thread's targets (K)
  const void* kernel;                    // for attributes and occupancy
  // One-way builds: j-sliced float partials.
  void (*launch)(dim3 grid, dim3 block, size_t shared, cudaStream_t s, const float4* bodies,
                 float4* acc, unsigned n, unsigned tiles, float eps2);
  // Pairs builds: fixed-point sums (nullptr for one-way builds).
  void (*launch_pairs)(dim3 block, cudaStream_t s, const PairsArgs& a);
  bool pairs() const { return launch_pairs != nullptr; }
};

// The pairs builds (nbody_pairs.cu).
std::vector<FastBuild> pairs_builds();

}  // namespace cv::nbody
