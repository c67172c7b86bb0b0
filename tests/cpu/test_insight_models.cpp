// The models behind the "see inside the kernel" views: launch map, memory
// accesses, tree-reduction steps, race histogram and interleaving, occupancy curve.
#include <gtest/gtest.h>

#include <numeric>
#include <set>

#include "common/device_report.h"
#include "fountain/fountain.h"
#include "fountain/fountain_access.h"
#include "insight/access_model.h"
#include "insight/launch_model.h"
#include "insight/occupancy_curve.h"
#include "insight/race_model.h"
#include "insight/tree_steps.h"

using namespace cv::insight;

namespace {

// Brute force over every thread of every block: each element is handled by
// exactly the thread thread_of_element() names, and element_of_thread()
// agrees; the summary's working count is the number of threads with an element.
void check_launch_bijection(const ElementLaunch& l) {
  const Dim3u g = grid_of(l);
  std::vector<int> hits(l.count, 0);
  unsigned long long working = 0;
  for (unsigned by = 0; by < g.y; ++by)
    for (unsigned bx = 0; bx < g.x; ++bx)
      for (unsigned tz = 0; tz < l.block.z; ++tz)
        for (unsigned ty = 0; ty < l.block.y; ++ty)
          for (unsigned tx = 0; tx < l.block.x; ++tx) {
            const Dim3u b{bx, by, 0}, t{tx, ty, tz};
            const long long i = element_of_thread(l, b, t);
            if (i < 0) continue;
            ++working;
            ASSERT_LT(static_cast<unsigned long long>(i), l.count);
            ++hits[i];
            const ThreadPos p = thread_of_element(l, static_cast<unsigned long long>(i));
            ASSERT_EQ(block_linear(p.block, g), block_linear(b, g)) << "element " << i;
            ASSERT_EQ(thread_linear(p.thread, l.block), thread_linear(t, l.block))
                << "element " << i;
          }
  for (unsigned long long i = 0; i < l.count; ++i) ASSERT_EQ(hits[i], 1) << "element " << i;
  const LaunchSummary s = summarize(l, 0, 0);
  EXPECT_EQ(s.threads_working, working);
  EXPECT_EQ(s.threads_launched, s.blocks * block_threads(l.block));
  EXPECT_EQ(s.threads_idle, s.threads_launched - working);
}

}  // namespace

TEST(LaunchModel, Grid2dOddShapesCoverEveryElementOnce) {
  check_launch_bijection(make_launch(Layout::Grid2d, 1000, 999, 999000ull, {7, 13, 1}));
  check_launch_bijection(make_launch(Layout::Grid2d, 101, 100, 10007ull, {32, 3, 1}));
  check_launch_bijection(make_launch(Layout::Grid2d, 64, 64, 4000ull, {1, 256, 1}));
}

TEST(LaunchModel, RowsYzAndFlatCoverEveryElementOnce) {
  check_launch_bijection(make_launch(Layout::RowsYz, 101, 100, 10007ull, {5, 3, 4}));
  check_launch_bijection(make_launch(Layout::Flat, 10007, 1, 10007ull, {33, 3, 1}));
}

TEST(LaunchModel, IdsFollowTheHardwareNumbering) {
  // 7x13 blocks: 91 threads = 3 warps (the last one partial) a block.
  const ElementLaunch l = make_launch(Layout::Grid2d, 1000, 999, 999000ull, {7, 13, 1});
  const Dim3u g = grid_of(l);
  EXPECT_EQ(g.x, 143u);  // ceil(1000 / 7)
  EXPECT_EQ(g.y, 77u);   // ceil(999 / 13)
  // Element (x = 15, y = 27): block (2, 2), thread (1, 1) -> linear thread 8.
  const unsigned long long i = 27ull * 1000 + 15;
  EXPECT_EQ(model_id(l, i, ColourBy::Block), 2u * 143u + 2u);
  EXPECT_EQ(model_id(l, i, ColourBy::Thread), 8u);
  EXPECT_EQ(model_id(l, i, ColourBy::Warp), (2u * 143u + 2u) * 3u + 0u);
  // Thread (4, 5): linear 39 -> warp 1, lane 7.
  const unsigned long long j = 5ull * 1000 + 4;
  EXPECT_EQ(model_id(l, j, ColourBy::Thread), 7u);
  EXPECT_EQ(model_id(l, j, ColourBy::Warp), 1u);
  std::vector<uint32_t> ids(l.count);
  fill_ids(l, ColourBy::Warp, ids.data());
  EXPECT_EQ(ids[i], model_id(l, i, ColourBy::Warp));
  EXPECT_EQ(ids[j], 1u);
}

TEST(LaunchModel, WavesAndTail) {
  // 256x256 particles in 16x16 blocks: 256 blocks, no tail.
  const LaunchSummary a =
      summarize(make_launch(Layout::Grid2d, 256, 256, 65536ull, {16, 16, 1}), 8, 132);
  EXPECT_EQ(a.blocks, 256u);
  EXPECT_EQ(a.threads_idle, 0u);
  EXPECT_EQ(a.warps, 256u * 8u);
  EXPECT_EQ(a.waves, 1u);  // 8 x 132 = 1056 resident blocks
  EXPECT_NEAR(a.last_wave_fill, 256.0 / 1056.0, 1e-12);
  // 1000 elements in blocks of 96: 11 blocks, 56 idle threads in the last one.
  const LaunchSummary b = summarize(make_launch(Layout::Flat, 1000, 1, 1000ull, {96, 1, 1}), 2, 4);
  EXPECT_EQ(b.blocks, 11u);
  EXPECT_EQ(b.threads_idle, 56u);
  EXPECT_EQ(b.partial_blocks, 1u);
  EXPECT_EQ(b.waves, 2u);  // 8 blocks a wave
  EXPECT_NEAR(b.last_wave_fill, 3.0 / 8.0, 1e-12);
  const BlockThreads last =
      block_threads_of(make_launch(Layout::Flat, 1000, 1, 1000ull, {96, 1, 1}), 10);
  EXPECT_EQ(last.working_count, 40u);
}

// --- Memory accesses ---------------------------------------------------------

namespace {

// Brute force: every byte of every active lane's access, by the kernel's index
// function computed here directly, collected into 32-byte sectors.
unsigned brute_sectors(const std::string& variant, unsigned count, const cv::BlockShape& b,
                       unsigned long long block_lin, unsigned warp, const AccessSpec& a) {
  const cv::fountain::Grid g = cv::fountain::make_grid(count);
  const Dim3u bd{static_cast<unsigned>(b.x), static_cast<unsigned>(b.y), 1};
  const unsigned gx_blocks = (g.width + bd.x - 1) / bd.x;
  const Dim3u blk{static_cast<unsigned>(block_lin % gx_blocks),
                  static_cast<unsigned>(block_lin / gx_blocks), 0};
  std::set<unsigned long long> sectors;
  for (unsigned lane = 0; lane < 32; ++lane) {
    const unsigned t = warp * 32 + lane;
    if (t >= bd.x * bd.y) continue;
    const Dim3u th{t % bd.x, t / bd.x, 0};
    const Xy xy = cv::fountain::thread_xy(blk, th, bd);
    const unsigned i = cv::fountain::particle_index(xy.x, xy.y, g);
    if (!cv::fountain::particle_exists(xy.x, i, g)) continue;
    const unsigned long long addr = a.array_base + (a.element_offset + i) * a.bytes;
    for (unsigned k = 0; k < a.bytes; ++k) sectors.insert((addr + k) / 32);
  }
  (void)variant;
  return static_cast<unsigned>(sectors.size());
}

}  // namespace

TEST(AccessModel, SectorsMatchBruteForceOverWholeWarps) {
  const std::vector<cv::BlockShape> shapes{
      {16, 16, 1}, {256, 1, 1}, {1, 256, 1}, {7, 13, 1}, {33, 2, 1}};
  for (const char* variant : {"lean", "seed"})
    for (unsigned count : {65536u, 10007u})
      for (const auto& b : shapes) {
        const auto k = fountain_access_kernel(variant, count, b);
        ASSERT_TRUE(k);
        const unsigned long long blocks = static_cast<unsigned long long>(k->grid.x) * k->grid.y;
        for (unsigned long long blk : {0ull, blocks / 2, blocks - 1})
          for (unsigned w = 0; w < warps_per_block(k->block_dim); ++w) {
            const WarpAccessPicture pic = warp_accesses(*k, blk, w);
            for (const WarpRequest& r : pic.requests)
              ASSERT_EQ(r.sectors, brute_sectors(variant, count, b, blk, w, r.spec))
                  << variant << " " << count << " " << cv::to_string(b) << " block " << blk
                  << " warp " << w << " " << r.spec.what;
          }
      }
}

TEST(AccessModel, CoalescedVersusColumnWarps) {
  // 256x1: a warp walks a row: float4 loads touch 16 sectors (100%), floats 4 sectors.
  const auto row = warp_accesses(*fountain_access_kernel("lean", 65536, {256, 1, 1}), 0, 0);
  EXPECT_EQ(row.requests[0].sectors, 16u);
  EXPECT_DOUBLE_EQ(row.requests[0].efficiency, 1.0);
  EXPECT_EQ(row.requests[1].sectors, 4u);
  EXPECT_EQ(row.requests[0].lines, 4u);
  // 1x256: a warp walks a column: every lane its own sector and line.
  const auto col = warp_accesses(*fountain_access_kernel("lean", 65536, {1, 256, 1}), 0, 0);
  EXPECT_EQ(col.requests[0].sectors, 32u);
  EXPECT_DOUBLE_EQ(col.requests[0].efficiency, 0.5);
  EXPECT_EQ(col.requests[1].sectors, 32u);
  EXPECT_DOUBLE_EQ(col.requests[1].efficiency, 0.125);
  EXPECT_THROW(warp_accesses(*fountain_access_kernel("lean", 65536, {256, 1, 1}), 0, 8),
               std::invalid_argument);
  EXPECT_FALSE(fountain_access_kernel("nope", 100, {16, 16, 1}));
}

// --- Tree reduction ------------------------------------------------------------

TEST(TreeSteps, EveryVariantEndsWithTheSumInThreadZero) {
  for (unsigned n : {64u, 100u, 333u, 512u, 1000u, 1024u}) {
    const auto in = tree_input(n, 7);
    const long long sum = std::accumulate(in.begin(), in.end(), 0ll);
    const unsigned p = padded_size(n);
    for (int v = 0; v < kTreeVariants; ++v) {
      const auto out = tree_values_cpu(static_cast<TreeVariant>(v), in, tree_steps(p));
      EXPECT_EQ(out[0], sum) << to_string(static_cast<TreeVariant>(v)) << " n " << n;
    }
  }
}

TEST(TreeSteps, PartialStepsHoldPartialSums) {
  // Sequential after k steps: thread t holds the sum of in[t + j * (p >> k)].
  const auto in = tree_input(256, 3);
  const unsigned p = 256;
  for (unsigned k = 0; k <= tree_steps(p); ++k) {
    const auto out = tree_values_cpu(TreeVariant::Sequential, in, k);
    const unsigned span = p >> k;
    for (unsigned t = 0; t < span; ++t) {
      long long want = 0;
      for (unsigned j = t; j < p; j += span) want += in[j];
      ASSERT_EQ(out[t], want) << "step " << k << " thread " << t;
    }
    // Interleaved (both): thread 2^k * m holds the sum of its 2^k-wide run.
    const auto a = tree_values_cpu(TreeVariant::Divergent, in, k);
    const auto b = tree_values_cpu(TreeVariant::Strided, in, k);
    EXPECT_EQ(a, b);
    for (unsigned t = 0; t < p; t += 1u << k)
      ASSERT_EQ(a[t], std::accumulate(in.begin() + t, in.begin() + t + (1u << k), 0ll));
  }
  EXPECT_THROW(tree_values_cpu(TreeVariant::Sequential, in, 9), std::invalid_argument);
  EXPECT_THROW(tree_input(63, 1), std::invalid_argument);
  EXPECT_THROW(tree_input(1025, 1), std::invalid_argument);
}

TEST(TreeSteps, CostsShowDivergenceAndBankConflicts) {
  const unsigned p = 256;  // 8 warps
  // Divergent, step 0: half the threads of every warp: 8 divergent warps, no conflicts.
  auto d0 = tree_step_stats(TreeVariant::Divergent, 0, p);
  EXPECT_EQ(d0.active_threads, 128u);
  EXPECT_EQ(d0.divergent_warps, 8u);
  EXPECT_EQ(d0.bank_conflicts, 0u);
  // Strided, step 0: 128 threads = 4 full warps, index 2t: two words per bank.
  auto s0 = tree_step_stats(TreeVariant::Strided, 0, p);
  EXPECT_EQ(s0.active_warps, 4u);
  EXPECT_EQ(s0.divergent_warps, 0u);
  EXPECT_EQ(s0.bank_conflicts, 4u * 3u);  // 2-way on each of the 3 accesses
  // Strided, step 2: index 8t: 8 words per bank among a warp's 32 lanes.
  EXPECT_EQ(tree_step_stats(TreeVariant::Strided, 2, p).bank_conflicts, 1u * (2u * 7u + 7u));
  // Sequential: no conflicts ever; divergence only once fewer than 32 threads work.
  for (unsigned k = 0; k < tree_steps(p); ++k) {
    const auto s = tree_step_stats(TreeVariant::Sequential, k, p);
    EXPECT_EQ(s.bank_conflicts, 0u);
    EXPECT_EQ(s.divergent_warps, (p >> (k + 1)) < 32 ? 1u : 0u) << "step " << k;
  }
  // Shuffle: no shared memory inside warps.
  EXPECT_EQ(tree_step_stats(TreeVariant::Shuffle, 0, p).shared_accesses, 0u);
  EXPECT_TRUE(tree_thread_active(TreeVariant::Shuffle, 15, 0, p));
  EXPECT_FALSE(tree_thread_active(TreeVariant::Shuffle, 16, 0, p));
  EXPECT_EQ(parse_tree_variant("sequential"), TreeVariant::Sequential);
  EXPECT_FALSE(parse_tree_variant("bogus"));
}

// --- Race ---------------------------------------------------------------------

TEST(RaceModel, HistogramCountsRunsAndLostUpdates) {
  const auto h = race_histogram({90, 95, 100, 99, 60}, 100, 5);
  EXPECT_EQ(h.lo, 60);
  EXPECT_EQ(h.hi, 100);
  EXPECT_EQ(std::accumulate(h.bins.begin(), h.bins.end(), 0), 5);
  EXPECT_EQ(h.right_bin, 4);
  EXPECT_EQ(h.bins[0], 1);  // 60
  EXPECT_EQ(h.max_lost, 40);
  EXPECT_EQ(h.min_lost, 0);
  EXPECT_DOUBLE_EQ(h.mean_lost, (10 + 5 + 0 + 1 + 40) / 5.0);
}

TEST(RaceModel, InterleavingLosesAnUpdate) {
  const auto serial = interleave_rmw({0, 0, 0, 1, 1, 1}, 5);
  EXPECT_EQ(serial.back().memory, 7);
  const auto racy = interleave_rmw({0, 1, 0, 1, 0, 1}, 5);
  EXPECT_EQ(racy.back().memory, 6);  // both loaded 5: one increment lost
  EXPECT_EQ(racy[1].value, 5);
  EXPECT_THROW(interleave_rmw({0, 0, 0, 0, 1, 1}, 0), std::invalid_argument);
}

// --- Occupancy curve ------------------------------------------------------------

TEST(OccupancyCurve, OnePointPerWarpWithTheModelsLimiter) {
  cv::OccupancyDevice dev;
  dev.cc_major = 9;
  dev.shared_per_sm = 228 * 1024;
  cv::apply_architecture_rules(dev);
  cv::KernelUsage use;
  use.regs_per_thread = 64;
  const auto curve = occupancy_curve(dev, use);
  ASSERT_EQ(curve.size(), 32u);
  EXPECT_EQ(curve.front().threads, 32);
  EXPECT_EQ(curve.back().threads, 1024);
  for (const auto& pt : curve) {
    const cv::Occupancy o = cv::occupancy_model(dev, use, pt.threads);
    EXPECT_EQ(pt.blocks_per_sm, o.blocks_per_sm);
    EXPECT_EQ(pt.limiters, o.limiters);
  }
  // 64 registers a thread: at most 1024 threads resident -> 50% at 1024 threads.
  EXPECT_NEAR(curve.back().occupancy, 0.5, 1e-9);
  EXPECT_TRUE(curve.back().limiters & cv::kLimitRegisters);
  use.max_threads_per_block = 256;
  EXPECT_EQ(occupancy_curve(dev, use).size(), 8u);
}
