#pragma once
// What a kernel's source does that decides which built-in variant is "the same
// algorithm" (bench/algorithm_families.h): shared memory, a loop over tiles,
// a block tree, warp shuffles, atomics, a grid-stride loop, a 2D thread index.
// A cheap look at the text (comments and literals blanked), not a proof: each
// trait carries the line it was seen at, so the words can say why.
#include <string>
#include <string_view>
#include <vector>

namespace cv::bench {

enum class Trait : unsigned {
  Shared = 1u << 0,       // __shared__ memory
  TileLoop = 1u << 1,     // a loop with __syncthreads() in it that is not a halving tree
  BlockTree = 1u << 2,    // a halving/doubling loop with __syncthreads() in it
  WarpShuffle = 1u << 3,  // __shfl_*_sync / __reduce_*_sync
  Atomics = 1u << 4,      // atomicAdd, atomicCAS, ...
  GridStride = 1u << 5,   // a loop stepping by gridDim or cv::grid_threads() (directly or through a variable)
  TwoD = 1u << 6,         // a 2D grid: blockIdx.y / gridDim.y (or z)
};
using TraitSet = unsigned;
inline TraitSet operator|(Trait a, Trait b) { return static_cast<unsigned>(a) | static_cast<unsigned>(b); }
inline TraitSet operator|(TraitSet a, Trait b) { return a | static_cast<unsigned>(b); }
inline bool has(TraitSet s, Trait t) { return (s & static_cast<unsigned>(t)) != 0; }

const char* to_string(Trait t);                 // "shared", "tile_loop", ...
std::string describe(Trait t);                  // "uses __shared__ memory", ...
std::vector<Trait> all_traits();
std::vector<std::string> trait_names(TraitSet s);  // in all_traits() order

struct TraitSeen {
  Trait trait;
  int line = 0;  // 1-based line of the student's file where it was seen
};

struct KernelTraits {
  TraitSet set = 0;
  std::vector<TraitSeen> seen;  // one per trait found, first place
  int line_of(Trait t) const;   // 0 when not seen
};

// The traits of a CUDA source (the student's file as written).
KernelTraits classify_kernel(std::string_view source);

// The source with comments, string and character literals blanked to spaces
// (newlines kept, so offsets and lines stay those of the file).
std::string code_only(std::string_view source);

}  // namespace cv::bench
