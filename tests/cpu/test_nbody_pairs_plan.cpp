// The pairs kernels' work list: every ordered pair of bodies (i, j) must reach
// body i exactly once, either as i's own sum (a tile swept one way, or the
// target side of a two-way tile) or as a reaction (the tile side of a two-way
// tile), for any count, block and residency.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/kernel_attributes.h"
#include "nbody/fast_build.h"
#include "nbody/nbody.h"
#include "nbody/nbody_pairs_plan.h"

using namespace cv::nbody;

namespace {

// How many times body i receives the pull of body j, replaying the plan the
// way forces_pairs walks it.
std::vector<int> coverage(const PairsPlan& p) {
  const unsigned n = p.padded(), tile = p.shape.tile_bodies(), set = p.shape.set_bodies();
  std::vector<int> hits(static_cast<size_t>(n) * n, 0);
  for (const uint4& it : p.items) {
    EXPECT_EQ(it.x % set, 0u);
    EXPECT_LE(it.z, p.tiles);
    EXPECT_LT(it.y, it.z);
    EXPECT_EQ(it.w, (it.x / set + 1) * p.shape.tiles_per_set());
    EXPECT_GE(it.y, it.x / set * p.shape.tiles_per_set()) << "a set never looks back";
    for (unsigned k = it.y; k < it.z; ++k)
      for (unsigned i = it.x; i < it.x + set; ++i)
        for (unsigned j = k * tile; j < (k + 1) * tile; ++j) {
          ++hits[static_cast<size_t>(i) * n + j];
          if (k >= it.w) ++hits[static_cast<size_t>(j) * n + i];
        }
  }
  return hits;
}

}  // namespace

TEST(NBodyPairsPlan, ShapesFollowTheBlock) {
  const PairsShape s256 = pairs_shape(256, 8);
  EXPECT_EQ(s256.warps, 8u);
  EXPECT_EQ(s256.chunks, 8u);
  EXPECT_EQ(s256.set_bodies(), 2048u);
  EXPECT_EQ(s256.tile_bodies(), 256u);
  for (unsigned threads = 32; threads <= 1024; threads += 32)
    for (unsigned k : {4u, 8u}) {
      const PairsShape s = pairs_shape(threads, k);
      EXPECT_LE(s.chunks, s.warps) << threads;  // every thread stages at most one body
      EXPECT_LE(s.chunks, k);
      EXPECT_LE(s.warps * s.chunks, 64u);
      EXPECT_EQ(s.set_bodies() % s.tile_bodies(), 0u);
      EXPECT_LE(s.shared_bytes(), 32u * 1024u) << threads;  // fits every device's 48 KiB
    }
  EXPECT_THROW(pairs_shape(48, 8), std::invalid_argument);
  EXPECT_THROW(pairs_shape(2048, 8), std::invalid_argument);
  EXPECT_THROW(pairs_shape(256, 6), std::invalid_argument);
}

TEST(NBodyPairsPlan, EveryPairReachesEachBodyOnce) {
  struct Case {
    unsigned n, threads, k, resident;
  };
  for (const Case c : {Case{1, 32, 8, 1}, Case{257, 32, 8, 3}, Case{1000, 64, 4, 7},
                       Case{1500, 96, 4, 1000}, Case{700, 128, 4, 2}, Case{2049, 256, 8, 5},
                       Case{600, 32, 4, 264}}) {
    const PairsPlan p = plan_pairs(c.n, pairs_shape(c.threads, c.k), c.resident);
    ASSERT_GE(p.padded(), c.n);
    ASSERT_LT(p.padded() - c.n, p.shape.set_bodies());
    const std::vector<int> hits = coverage(p);
    const int wrong = static_cast<int>(
        std::count_if(hits.begin(), hits.end(), [](int h) { return h != 1; }));
    EXPECT_EQ(wrong, 0) << "n " << c.n << " threads " << c.threads << " k " << c.k;
  }
}

TEST(NBodyPairsPlan, PiecesFillTheDeviceAndCostliestGoFirst) {
  // 32,768 bodies, blocks of 256, 264 resident: a set's range must be cut.
  const PairsPlan p = plan_pairs(32768, pairs_shape(256, 8), 264);
  EXPECT_GT(p.max_pieces, 1u);
  EXPECT_GE(p.items.size(), 264u);
  for (size_t i = 1; i < p.items.size(); ++i) {
    const auto cost = [](const uint4& it) {
      const unsigned one = std::min(it.z, it.w) - std::min(it.y, it.w);
      return 3ull * one + 4ull * (it.z - it.y - one);
    };
    EXPECT_GE(cost(p.items[i - 1]), cost(p.items[i])) << i;
  }
  EXPECT_TRUE(plan_pairs(0, pairs_shape(256, 8), 264).items.empty());
}

// The occupancy panel asks a kernel's dynamic shared memory for the block it
// runs; the pairs kernels' bytes are not linear in the block, so the panel's
// function must give exactly what a launch of each pairs build reserves.
TEST(NBodyPairsPlan, PanelSharedMemoryIsWhatEachBuildLaunchesWith) {
  cv::DynamicShared linear{16, 0};
  EXPECT_EQ(linear.bytes(256), 4096);
  int pairs_builds = 0;
  for (const std::string& name : fast_tile_names()) {
    const FastBuild* b = find_build(name);
    ASSERT_NE(b, nullptr) << name;
    if (!b->pairs()) continue;
    ++pairs_builds;
    const cv::DynamicShared d = pairs_dynamic_shared(*b);
    for (unsigned t = 32; t <= b->max_threads; t += 32)
      EXPECT_EQ(d.bytes(t), static_cast<long long>(build_shared(*b, t))) << name << " " << t;
  }
  EXPECT_GE(pairs_builds, 2);
  // Not linear in the block: chunks follow the warps.
  EXPECT_NE(2 * pairs_shape(256, 4).shared_bytes(), pairs_shape(512, 4).shared_bytes());
}
