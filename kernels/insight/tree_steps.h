#pragma once
// A tree reduction of one block, stoppable after any step, for the reduction
// step-through: the kernel (tree_steps.cu) runs `stop` steps and writes every
// thread's value back; the CPU model (tree_steps_cpu.cpp) applies the same
// steps through the same per-step functions below, and counts what the step
// costs (active threads and warps, divergent warps, shared-memory bank
// conflicts).
//
// n elements (kMinElements..kMaxElements, any n) are padded with zeros to p,
// the next power of two; the block has p threads and every variant takes
// log2(p) steps.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/hd.h"

namespace cv::insight {

enum class TreeVariant : int {
  Divergent = 0,   // interleaved addressing, if (t % (2s) == 0): divergent warps
  Strided = 1,     // interleaved addressing, index 2*s*t: no divergence, bank conflicts
  Sequential = 2,  // sequential addressing, t < s: neither
  Shuffle = 3,     // warp shuffles, then warp 0 sums the warps' totals
};
const char* to_string(TreeVariant v);
std::optional<TreeVariant> parse_tree_variant(const std::string& name);
constexpr int kTreeVariants = 4;

constexpr unsigned kMinElements = 64, kMaxElements = 1024;
constexpr unsigned kShuffleWarpSteps = 5;  // offsets 16, 8, 4, 2, 1 within each warp

CV_HD unsigned padded_size(unsigned n) {
  unsigned p = 1;
  while (p < n) p <<= 1;
  return p;
}
CV_HD unsigned tree_steps(unsigned p) {
  unsigned k = 0;
  while ((1u << k) < p) ++k;
  return k;
}

// Step k of a shared-memory variant for thread t: sh[dst] += sh[src] when active.
struct TreeOp {
  bool active;
  unsigned dst, src;
};
CV_HD TreeOp tree_op(TreeVariant v, unsigned t, unsigned k, unsigned p) {
  if (v == TreeVariant::Sequential) {
    const unsigned s = p >> (k + 1);
    return {t < s, t, t + s};
  }
  const unsigned s = 1u << k;
  if (v == TreeVariant::Strided) {
    const unsigned idx = 2u * s * t;
    return {idx < p, idx, idx + s};
  }
  return {t % (2u * s) == 0u, t, t + s};  // Divergent
}

// Step k of the shuffle variant: steps 0..4 shuffle down within every warp by
// 16 >> k; from step 5 warp 0 holds the warps' totals (step 5 gathers them)
// and shuffles down by (p / 32) >> (k - 4).
CV_HD bool shuffle_in_warps(unsigned k) {
  return k < kShuffleWarpSteps;
}
CV_HD unsigned shuffle_offset(unsigned k, unsigned p) {
  return shuffle_in_warps(k) ? 16u >> k : (p / 32u) >> (k - kShuffleWarpSteps + 1);
}

// Thread values after `stop` steps (stop <= tree_steps(p)) from the padded input.
std::vector<int32_t> tree_values_cpu(TreeVariant v, const std::vector<int32_t>& padded,
                                     unsigned stop);

// The input the view uses: n small integers (0..9) from a seed, padded to p.
std::vector<int32_t> tree_input(unsigned n, uint64_t seed);
// Why n cannot be stepped through, or nullopt.
std::optional<std::string> check_tree_size(unsigned n);

// What step k costs.
struct TreeStepStats {
  unsigned active_threads = 0;   // threads doing an add (shuffle: lanes whose sum is used)
  unsigned active_warps = 0;     // warps that execute the step's add
  unsigned divergent_warps = 0;  // warps where only some threads take the branch
  unsigned bank_conflicts = 0;   // extra shared-memory wavefronts (degree - 1 per access)
  unsigned shared_accesses = 0;  // warp-wide shared-memory instructions
};
TreeStepStats tree_step_stats(TreeVariant v, unsigned k, unsigned p);
// Whether thread t does useful work in step k (the picture's highlight).
bool tree_thread_active(TreeVariant v, unsigned t, unsigned k, unsigned p);

}  // namespace cv::insight
