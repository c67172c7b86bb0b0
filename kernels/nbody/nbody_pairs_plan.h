#pragma once
// The work list of the pairs kernels (nbody_pairs.cu), which evaluate each pair
// of bodies once and apply it to both (Newton's third law). Host code only, so
// the plan's coverage is testable without a GPU.
//
// A block of W warps owns a "set" of W * 32 * K bodies (K a lane). Bodies are
// also cut into tiles of 32 * C that a block stages in shared memory. A set
// sweeps its own tiles one way (each body of the set takes the pull of every
// other, both sides computed), and every tile after the set both ways (the
// tile's bodies take the reaction). So each unordered pair is evaluated once,
// and a set never looks at the tiles before it. A set's range of tiles is cut
// into pieces of similar cost, so the work of the triangle spreads over the GPU.
#include <vector_types.h>

#include <vector>

namespace cv::nbody {

struct PairsShape {
  unsigned warps = 1;     // W: warps of a block
  unsigned per_lane = 8;  // K: bodies a lane owns
  unsigned chunks = 1;    // C: 32-body chunks of a tile, a power of two <= K

  unsigned set_bodies() const { return warps * 32 * per_lane; }
  unsigned tile_bodies() const { return 32 * chunks; }
  unsigned tiles_per_set() const { return set_bodies() / tile_bodies(); }
  // Tile (twice: see nbody_pairs.cu) + the warps' reaction partials, in bytes.
  unsigned shared_bytes() const { return chunks * 64 * 16 + 3 * warps * tile_bodies() * 4; }
};

// The shape for a block of `threads` (a multiple of 32, at most 1024) and K.
// C keeps the partials at most 24 KiB (W * C <= 64) and C <= W, so that every
// thread stages at most one body of a tile.
PairsShape pairs_shape(unsigned threads, unsigned per_lane);

struct PairsPlan {
  PairsShape shape;
  unsigned sets = 0;   // ceil(n / set_bodies): bodies past n are zero-mass padding
  unsigned tiles = 0;  // sets * tiles_per_set
  // One block each: {first body of the set, first tile, end tile, first tile
  // taken both ways}, the costliest first.
  std::vector<uint4> items;
  unsigned max_pieces = 0;  // the most items one set's range was cut into
  unsigned padded() const { return sets * shape.set_bodies(); }
};

// resident: blocks the device runs at once (the pieces are sized for about
// kPairsWaves of them). n == 0 gives an empty plan.
constexpr unsigned kPairsWaves = 8;
PairsPlan plan_pairs(unsigned n, const PairsShape& shape, unsigned resident);

}  // namespace cv::nbody
