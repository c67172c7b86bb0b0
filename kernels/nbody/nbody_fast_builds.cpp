// The n-body fast variant's builds in one list (the pairs builds, then the
// one-way ones) and the plan that picks one for a block on this device.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <string>

#include "common/cuda_check.h"
#include "common/device_info.h"
#include "nbody/fast_build.h"
#include "nbody/nbody.h"
#include "nbody/nbody_pairs_plan.h"

namespace cv::nbody {
namespace {

// Candidates measured against each other with CUDAVIZ_NBODY_TILE
// (docs/performance.md).
const std::vector<FastBuild>& fast_builds() {
  static const std::vector<FastBuild> builds = [] {
    std::vector<FastBuild> b = pairs_builds();
    for (const FastBuild& one_way : one_way_builds()) b.push_back(one_way);
    return b;
  }();
  return builds;
}

// Shared memory of a pairs build for a block of `threads` (0 where it cannot run).
template <unsigned K>
long long pairs_shared_of(long long threads) {
  if (threads <= 0 || threads % 32 != 0 || threads > 1024) return 0;
  return pairs_shape(static_cast<unsigned>(threads), K).shared_bytes();
}

}  // namespace

std::string unknown_build(const std::string& name, const char* from) {
  std::string list;
  for (const FastBuild& b : fast_builds()) list += (list.empty() ? "" : ", ") + std::string(b.name);
  return "nbody fast: unknown build '" + name + "'" + from + "; the builds are auto, " + list;
}

const FastBuild* find_build(const std::string& name) {
  for (const FastBuild& b : fast_builds())
    if (name == b.name) return &b;
  return nullptr;
}

size_t build_shared(const FastBuild& b, unsigned nt) {
  return b.pairs() ? pairs_shape(nt, b.bodies).shared_bytes()
                   : static_cast<size_t>(nt) * sizeof(float4);
}

// Blocks of this build the device holds at once (0 where the block cannot run).
unsigned resident_blocks(const FastBuild& b, unsigned nt) {
  int per_sm = 0;
  CV_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, b.kernel, static_cast<int>(nt),
                                                        build_shared(b, nt)));
  return static_cast<unsigned>(std::max(per_sm, 0) * std::max(device_info().sm_count, 0));
}

// Builds in order of preference where no build is named; the plan takes the
// first that this device runs with the block and that keeps kPlanMinWarps
// warps resident per SM. Measured on the H100 (docs/performance.md): the pairs
// builds do two interactions in ~17.7 instructions where the one-way ones do
// one in 13.25 (1.39-1.44x faster at 32K-1M bodies); pairs4 (64 registers, up
// to 32 warps an SM, smaller sets so finer pieces) beats pairs8 at every size,
// by 11% at 32,768. Of the one-way builds k8u4 beats k8u8 (same), k12u4 (-15%)
// and the 16-target builds, whose ~182 registers leave 8 warps an SM (-35%).
namespace {

constexpr const char* kPlanOrder[] = {"pairs4", "pairs8", "k8u4", "k4u4"};
constexpr int kPlanMinWarps = 16;

const char* planned_build(unsigned nt) {
  for (const char* name : kPlanOrder) {
    const FastBuild* b = find_build(name);
    if (nt > b->max_threads) continue;
    int per_sm = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, b->kernel, static_cast<int>(nt),
                                                      build_shared(*b, nt)) != cudaSuccess) {
      cudaGetLastError();  // no device: the first build that fits the block
      return name;
    }
    if (per_sm * static_cast<int>(nt) / 32 >= kPlanMinWarps) return name;
  }
  return "pairs4";
}

}  // namespace

namespace {
// set_default_fast_tile's choice: set once at start-up, read by every launch.
struct DefaultTile {
  std::mutex mutex;
  std::string name, origin;
};
DefaultTile& default_tile() {
  static DefaultTile d;
  return d;
}
}  // namespace

void set_default_fast_tile(const std::string& tile, const std::string& origin) {
  DefaultTile& d = default_tile();
  std::lock_guard<std::mutex> lock(d.mutex);
  d.name = tile;
  d.origin = origin;
}

// The tile plan: the named build (set_fast_tile, else set_default_fast_tile's),
// or planned_build().
const FastBuild& fast_build(const BlockShape& block, const std::string& tile) {
  const unsigned nt = static_cast<unsigned>(block.threads());
  std::string name = tile;
  std::string from;
  if (name.empty()) {
    DefaultTile& d = default_tile();
    std::lock_guard<std::mutex> lock(d.mutex);
    name = d.name;
    if (!d.origin.empty() && !name.empty()) from = " (from " + d.origin + ")";
  }
  if (name.empty() || name == "auto") name = planned_build(nt);
  const FastBuild* b = find_build(name);
  if (!b) throw std::invalid_argument(unknown_build(name, from.c_str()));
  if (nt > b->max_threads)
    throw std::invalid_argument("nbody fast: tile build " + name + " runs blocks of at most " +
                                std::to_string(b->max_threads) + " threads, not " +
                                std::to_string(nt) + " (" + to_string(block) + ")");
  return *b;
}

DynamicShared pairs_dynamic_shared(const FastBuild& b) {
  DynamicShared s;
  s.of_threads = b.bodies == 8 ? &pairs_shared_of<8> : &pairs_shared_of<4>;
  return s;
}

std::vector<std::string> fast_tile_names() {
  std::vector<std::string> names;
  for (const FastBuild& b : fast_builds()) names.emplace_back(b.name);
  return names;
}

unsigned fast_tile_max_threads(const std::string& tile) {
  const FastBuild* b = find_build(tile);
  if (!b) throw std::invalid_argument(unknown_build(tile, ""));
  return b->max_threads;
}

std::string fast_tile_for(const BlockShape& block, const std::string& tile) {
  return fast_build(block, tile).name;
}

unsigned fast_bodies_per_thread(const BlockShape& block, const std::string& tile) {
  return fast_build(block, tile).bodies;
}


}  // namespace cv::nbody
