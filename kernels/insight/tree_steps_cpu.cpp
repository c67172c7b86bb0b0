// CPU model of the stoppable tree reduction: the same steps as tree_steps.cu
// through the same tree_op()/shuffle_offset(), plus what each step costs.
#include <algorithm>
#include <map>
#include <stdexcept>

#include "insight/tree_steps.h"

namespace cv::insight {
namespace {

constexpr unsigned kBanks = 32;

// A warp shuffle-down by `off` over lanes [base, base + 32): a lane whose
// source is past the warp gets its own value back (the hardware's rule).
void shuffle_down_add(std::vector<int32_t>& v, unsigned base, unsigned off) {
  int32_t got[32];
  for (unsigned lane = 0; lane < 32; ++lane)
    got[lane] = lane + off < 32 ? v[base + lane + off] : v[base + lane];
  for (unsigned lane = 0; lane < 32; ++lane) v[base + lane] += got[lane];
}

void shuffle_step(std::vector<int32_t>& v, unsigned k, unsigned p) {
  const unsigned warps = p / 32;
  if (shuffle_in_warps(k)) {
    for (unsigned w = 0; w < warps; ++w) shuffle_down_add(v, w * 32, shuffle_offset(k, p));
    return;
  }
  if (k == kShuffleWarpSteps) {  // warp 0 gathers the warps' totals (lane 0 of each)
    std::vector<int32_t> totals(warps);
    for (unsigned w = 0; w < warps; ++w) totals[w] = v[w * 32];
    for (unsigned lane = 0; lane < 32; ++lane) v[lane] = lane < warps ? totals[lane] : 0;
  }
  shuffle_down_add(v, 0, shuffle_offset(k, p));
}

// Extra wavefronts of one warp-wide shared access: for each bank, the number of
// distinct 4-byte words the active lanes touch in it, minus one, at the worst bank.
unsigned conflict_degree(const std::vector<unsigned>& words) {
  std::map<unsigned, std::vector<unsigned>> by_bank;
  for (unsigned w : words) {
    auto& b = by_bank[w % kBanks];
    if (std::find(b.begin(), b.end(), w) == b.end()) b.push_back(w);
  }
  size_t worst = 0;
  for (const auto& [bank, ws] : by_bank) worst = std::max(worst, ws.size());
  return worst == 0 ? 0 : static_cast<unsigned>(worst - 1);
}

TreeStepStats shared_step_stats(TreeVariant v, unsigned k, unsigned p) {
  TreeStepStats s;
  for (unsigned w = 0; w < p / 32; ++w) {
    std::vector<unsigned> dst, src;
    for (unsigned t = w * 32; t < w * 32 + 32; ++t) {
      const TreeOp op = tree_op(v, t, k, p);
      if (!op.active) continue;
      dst.push_back(op.dst);
      src.push_back(op.src);
    }
    if (dst.empty()) continue;
    ++s.active_warps;
    s.active_threads += static_cast<unsigned>(dst.size());
    if (dst.size() < 32) ++s.divergent_warps;
    // Read sh[dst], read sh[src], write sh[dst]: three warp-wide accesses.
    s.shared_accesses += 3;
    s.bank_conflicts += 2 * conflict_degree(dst) + conflict_degree(src);
  }
  return s;
}

}  // namespace

const char* to_string(TreeVariant v) {
  switch (v) {
    case TreeVariant::Divergent:
      return "interleaved-divergent";
    case TreeVariant::Strided:
      return "interleaved-strided";
    case TreeVariant::Sequential:
      return "sequential";
    case TreeVariant::Shuffle:
      return "shuffle";
  }
  return "?";
}

std::optional<TreeVariant> parse_tree_variant(const std::string& name) {
  for (int i = 0; i < kTreeVariants; ++i)
    if (name == to_string(static_cast<TreeVariant>(i))) return static_cast<TreeVariant>(i);
  return std::nullopt;
}

std::optional<std::string> check_tree_size(unsigned n) {
  if (n < kMinElements || n > kMaxElements)
    return "array size " + std::to_string(n) + " is outside [" + std::to_string(kMinElements) +
           ", " + std::to_string(kMaxElements) + "] (one block of the next power of two threads)";
  return std::nullopt;
}

std::vector<int32_t> tree_input(unsigned n, uint64_t seed) {
  if (auto err = check_tree_size(n)) throw std::invalid_argument(*err);
  std::vector<int32_t> v(padded_size(n), 0);
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
  for (unsigned i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    v[i] = static_cast<int32_t>(x % 10);
  }
  return v;
}

std::vector<int32_t> tree_values_cpu(TreeVariant v, const std::vector<int32_t>& padded,
                                     unsigned stop) {
  const unsigned p = static_cast<unsigned>(padded.size());
  if (p < 64 || padded_size(p) != p || stop > tree_steps(p))
    throw std::invalid_argument(
        "tree_values_cpu: size must be a power of two >= 64 and stop <= log2(size)");
  std::vector<int32_t> out = padded;
  for (unsigned k = 0; k < stop; ++k) {
    if (v == TreeVariant::Shuffle) {
      shuffle_step(out, k, p);
      continue;
    }
    // All reads of a step happen before its writes land (the kernel's barrier);
    // active pairs never overlap, so in-place is the same.
    for (unsigned t = 0; t < p; ++t) {
      const TreeOp op = tree_op(v, t, k, p);
      if (op.active) out[op.dst] += out[op.src];
    }
  }
  return out;
}

bool tree_thread_active(TreeVariant v, unsigned t, unsigned k, unsigned p) {
  if (v != TreeVariant::Shuffle) return tree_op(v, t, k, p).active;
  const unsigned lane = t % 32, off = shuffle_offset(k, p);
  return shuffle_in_warps(k) ? lane < off : (t < 32 && lane < off);
}

TreeStepStats tree_step_stats(TreeVariant v, unsigned k, unsigned p) {
  if (v != TreeVariant::Shuffle) return shared_step_stats(v, k, p);
  TreeStepStats s;
  const unsigned warps = p / 32, off = shuffle_offset(k, p);
  if (shuffle_in_warps(k)) {
    s.active_warps = warps;  // every lane shuffles: no branch, no shared memory
    s.active_threads = warps * off;
    return s;
  }
  s.active_warps = 1;
  s.active_threads = off;
  if (k == kShuffleWarpSteps) {
    // if (lane == 0) sh[warp] = v: a one-lane store in every warp, then warp 0
    // reads the totals from consecutive words (no conflicts).
    s.divergent_warps = warps;
    s.shared_accesses = warps + 1;
  }
  return s;
}

}  // namespace cv::insight
