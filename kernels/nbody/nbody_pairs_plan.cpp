#include "nbody/nbody_pairs_plan.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace cv::nbody {
namespace {

unsigned floor_pow2(unsigned v) {
  unsigned p = 1;
  while (p * 2 <= v) p *= 2;
  return p;
}

// A tile inside the set is swept one way: 13 of the 17.5 instructions a
// two-way pair costs (nbody_math.h). Costs are in quarter units to stay integral.
constexpr unsigned kOneWayCost = 3, kTwoWayCost = 4;

}  // namespace

PairsShape pairs_shape(unsigned threads, unsigned per_lane) {
  if (threads == 0 || threads % 32 != 0 || threads > 1024)
    throw std::invalid_argument("nbody pairs: the block must have a multiple of 32 threads, at "
                                "most 1024 (not " + std::to_string(threads) + ")");
  if (per_lane == 0 || (per_lane & (per_lane - 1)) != 0)
    throw std::invalid_argument("nbody pairs: bodies a lane must be a power of two (not " +
                                std::to_string(per_lane) + ")");
  PairsShape s;
  s.warps = threads / 32;
  s.per_lane = per_lane;
  s.chunks = std::min(per_lane, floor_pow2(std::min(s.warps, 64 / s.warps)));
  return s;
}

PairsPlan plan_pairs(unsigned n, const PairsShape& shape, unsigned resident) {
  PairsPlan p;
  p.shape = shape;
  if (n == 0) return p;
  const unsigned per_set = shape.tiles_per_set();
  p.sets = (n + shape.set_bodies() - 1) / shape.set_bodies();
  p.tiles = p.sets * per_set;
  auto cost = [&](unsigned set) {
    return static_cast<unsigned long long>(per_set) * kOneWayCost +
           static_cast<unsigned long long>(p.tiles - (set + 1) * per_set) * kTwoWayCost;
  };
  unsigned long long total = 0;
  for (unsigned s = 0; s < p.sets; ++s) total += cost(s);
  const unsigned long long blocks = std::max(1ull, 1ull * resident * kPairsWaves);
  const unsigned long long piece = (total + blocks - 1) / blocks;

  // Tiles a piece: at least one, at most all (so the cast and first + len never wrap).
  const unsigned len = static_cast<unsigned>(std::clamp<unsigned long long>(
      (piece + kTwoWayCost - 1) / kTwoWayCost, 1, p.tiles));

  struct Piece {
    uint4 item;
    unsigned long long cost;
  };
  std::vector<Piece> pieces;
  for (unsigned s = 0; s < p.sets; ++s) {
    const unsigned two_way = (s + 1) * per_set;
    unsigned pieces_here = 0;
    for (unsigned first = s * per_set; first < p.tiles; first += len, ++pieces_here) {
      const unsigned end = std::min(p.tiles, first + len);
      const unsigned one_way = std::min(end, two_way) - std::min(first, two_way);
      pieces.push_back({uint4{s * shape.set_bodies(), first, end, two_way},
                        1ull * one_way * kOneWayCost + 1ull * (end - first - one_way) * kTwoWayCost});
    }
    p.max_pieces = std::max(p.max_pieces, pieces_here);
  }
  // Costliest first: the block scheduler hands them out in order, so the
  // short ones fill the last wave (longest-processing-time-first).
  std::stable_sort(pieces.begin(), pieces.end(),
                   [](const Piece& a, const Piece& b) { return a.cost > b.cost; });
  p.items.reserve(pieces.size());
  for (const Piece& q : pieces) p.items.push_back(q.item);
  return p;
}

}  // namespace cv::nbody
