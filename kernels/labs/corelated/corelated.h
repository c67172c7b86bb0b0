#pragma once
// Co-related ids (document 002): rows of related ids; count the pairs of rows
// (r < s) that share more than `threshold` ids. Rows are sets (ids sorted and
// deduplicated on load), so "shared" is the size of the intersection, which is
// what the document's kernels count (one flag per id of the first row).
//
// Variants:
//   cpu       threaded merge of sorted rows
//   atomic    the document's exp14.1: 2D grid of blocks, block (r, s), a thread per id
//             of row r searching row s; atomicAdd per hit into a per-pair counter
//             in global memory, then a pass counting pairs over the threshold
//   shared    the same grid; per-thread found counts in shared memory, a tree sum,
//             one atomic per co-related pair
//   launch1d  the document's exp7 shape: one thread per pair (1D grid over the upper
//             triangle), both loops in the thread
//   launch2d  one thread per pair on a 2D grid of 2D blocks, x -> r, y -> s (the
//             lower triangle idles, as in the 3SUM lab)
//   fast      ours: when the distinct ids number at most 65536, each row becomes
//             a bitset over their ranks and a block takes a tile of bx x by pairs
//             (the caller's 2D block), stages the tile's rows through shared
//             memory a chunk of words at a time and counts with AND + popc;
//             otherwise one thread per pair merges the two sorted rows
#include <cuda_runtime_api.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/block_shape.h"
#include "common/cuda_resources.h"
#include "common/name_table.h"

namespace cv::corelated {

enum class Variant { Cpu, Atomic, Shared, Launch1d, Launch2d, Fast };
// The variants, written once (common/name_table.h): the CLI spelling and what
// the combo adds, in the order benches run them and combos list them.
inline constexpr Named<Variant> kVariants[] = {
    {Variant::Cpu, "cpu"},
    {Variant::Atomic, "atomic"},
    {Variant::Shared, "shared"},
    {Variant::Launch1d, "launch1d"},
    {Variant::Launch2d, "launch2d"},
    {Variant::Fast, "fast"},
};
const char* to_string(Variant v);
std::optional<Variant> parse_variant(const std::string& name);
const std::vector<Variant>& all_variants();
bool is_gpu(Variant v);

constexpr int kDefaultThreshold = 2;  // the document's THRESHOLD

// Rows as sets, compressed: row r is ids[offsets[r] .. offsets[r + 1]).
struct Rows {
  std::vector<int32_t> ids;
  std::vector<uint32_t> offsets{0};
  size_t rows() const { return offsets.size() - 1; }
  uint32_t length(size_t r) const { return offsets[r + 1] - offsets[r]; }
  uint32_t max_length() const;
};

// Sorts and deduplicates every row. Throws std::invalid_argument if the ids do
// not fit 32-bit offsets.
Rows make_rows(const std::vector<int32_t>& values, const std::vector<size_t>& offsets);

// Generated classroom data: `rows` rows of `per_row` distinct ids drawn from
// [1, universe] with std::mt19937(seed).
constexpr uint32_t kDefaultSeed = 2002u;
Rows generate_rows(size_t rows, uint32_t per_row = 64, int32_t universe = 4096,
                   uint32_t seed = kDefaultSeed);

// --- CPU ------------------------------------------------------------------
// Polls `cancel` and returns early when set (the value is then meaningless).
uint64_t count_cpu(const Rows& rows, int threshold, const std::atomic<bool>* cancel = nullptr);
// The same count through an index from each id to the rows that hold it: the
// work is the pairs that share an id, not every pair of rows, so the verdict's
// reference at 2,000 rows takes milliseconds. Not a twin of any kernel.
uint64_t count_by_ids(const Rows& rows, int threshold);
// Single-threaded std::set_intersection over every pair, for tests.
uint64_t count_reference(const Rows& rows, int threshold);

// --- GPU ------------------------------------------------------------------
class CorelatedGpu {
 public:
  explicit CorelatedGpu(const Rows& rows);  // uploads (synchronously)
  size_t rows() const { return rows_; }
  // Enqueues `v` with the caller's block shape (validated, std::invalid_argument).
  void run(Variant v, int threshold, const BlockShape& block, cudaStream_t s);
  uint64_t result(cudaStream_t s);
  // Whether `fast` counts with bitsets (else it merges sorted rows).
  bool fast_uses_bitsets() const { return words_ > 0; }

 private:
  size_t rows_;
  DeviceBuffer<int32_t> ids_;
  DeviceBuffer<uint32_t> offsets_;
  DeviceBuffer<unsigned long long> count_;
  DeviceBuffer<uint32_t> pair_counts_;  // atomic: one counter per pair
  // fast: rows as bitsets over the ranks of the distinct ids (empty when too many)
  DeviceBuffer<uint32_t> bits_;
  unsigned words_ = 0;
};

}  // namespace cv::corelated
