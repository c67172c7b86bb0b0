#pragma once
// The builds of the fast variant: the pairs kernels (nbody_pairs.cu) and the
// one-way kernels (nbody_one_way.cu), and the plan that picks one. Host code.
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "common/block_shape.h"
#include "common/kernel_attributes.h"

namespace cv::nbody {

// The body snapshot holds count + kBodyPad bodies, the tail zero-mass at the
// origin, so tile loads and targets past N never need a bounds check: a
// zero-mass body adds exactly 0 (its distance is at least eps). It covers the
// widest set or target block of any build (K x max threads <= kBodyPad, a
// static_assert in each build; pairs8r85 needs all 6144).
constexpr unsigned kBodyPad = 6144;

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
  unsigned bodies, max_threads;  // bodies: a thread's targets (K)
  const void* kernel;                    // for attributes and occupancy
  // One-way builds: j-sliced float partials.
  void (*launch)(dim3 grid, dim3 block, size_t shared, cudaStream_t s, const float4* bodies,
                 float4* acc, unsigned n, unsigned tiles, float eps2);
  // Pairs builds: fixed-point sums (nullptr for one-way builds).
  void (*launch_pairs)(dim3 block, cudaStream_t s, const PairsArgs& a);
  bool pairs() const { return launch_pairs != nullptr; }
};

// The pairs builds (nbody_pairs.cu) and the one-way builds (nbody_one_way.cu).
std::vector<FastBuild> pairs_builds();
std::vector<FastBuild> one_way_builds();

// nbody_fast_builds.cpp: the build named (nullptr if none), its shared memory
// for a block of nt threads, how many blocks of it the device holds at once,
// the build a block runs (tile: a name, "" for set_default_fast_tile's, "auto"
// or "" there for the plan; std::invalid_argument for an unknown name or a block too large),
// and a pairs build's shared memory as a function of the block.
const FastBuild* find_build(const std::string& name);
// "nbody fast: unknown build 'x'<from>; the builds are auto, pairs4, ...".
std::string unknown_build(const std::string& name, const char* from);
size_t build_shared(const FastBuild& b, unsigned nt);
unsigned resident_blocks(const FastBuild& b, unsigned nt);
const FastBuild& fast_build(const BlockShape& block, const std::string& tile);
DynamicShared pairs_dynamic_shared(const FastBuild& b);

}  // namespace cv::nbody
