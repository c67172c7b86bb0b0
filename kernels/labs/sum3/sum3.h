#pragma once
// 3SUM (document 000): count index triples i < j < k with v_i + v_j + v_k == 0 over
// int32 data, exactly (64-bit sums and counts).
//
// Variants:
//   cpu_serial brute force O(n^3), one thread (the document's CPU column)
//   cpu        brute force O(n^3), threaded
//   cpu_sorted O(n^2): sort, then two pointers per i (duplicates counted exactly)
//   naive      the document's first kernel: 2D grid over (i, j), atomicAdd per hit
//   hoisted    the document's second: v_i, v_j hoisted into registers, atomicAdd per hit
//   shared     the document's final kernel: per-thread counts in shared memory, one
//              thread sums them, one atomicAdd per block
//   fast       ours, still O(n^3): triangular block mapping (no idle blocks), each
//              thread owns one i and kPairsPerThread j's, v_k tiles staged through
//              shared memory, 32-bit compares against precomputed targets, block
//              reduction, one atomic per block
//   sorted     O(n^2) on the GPU: radix sort, one i per thread, two pointers
//
// The 2D kernels (naive, hoisted, shared) map x -> i and y -> j with the
// caller's block; fast and sorted flatten the caller's block to x*y*z threads.
#include <cuda_runtime_api.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/block_shape.h"
#include "common/cpu_simd.h"
#include "common/cuda_resources.h"
#include "common/kernel_attributes.h"
#include "common/name_table.h"

namespace cv::sum3 {

enum class Variant { CpuSerial, Cpu, CpuSorted, Naive, Hoisted, Shared, Fast, Sorted };
// The variants, written once (common/name_table.h): the CLI spelling and what
// the combo adds, in the order benches run them and combos list them.
inline constexpr Named<Variant> kVariants[] = {
    {Variant::CpuSerial, "cpu_serial"},
    {Variant::Cpu, "cpu"},
    {Variant::CpuSorted, "cpu_sorted"},
    {Variant::Naive, "naive"},
    {Variant::Hoisted, "hoisted"},
    {Variant::Shared, "shared"},
    {Variant::Fast, "fast"},
    {Variant::Sorted, "sorted"},
};
const char* to_string(Variant v);
std::optional<Variant> parse_variant(const std::string& name);
const std::vector<Variant>& all_variants();
bool is_gpu(Variant v);
// The kernel a GPU variant launches for its main work, with its dynamic shared
// memory, for the tuning panels; nullopt for variants without one of ours (CPU,
// library calls). Never throws: CUDA errors are in the result.
std::optional<KernelAttributes> kernel_attributes(Variant v);
bool is_brute_force(Variant v);  // O(n^3) work

// Pairs (i, j) one thread of `fast` owns for its i.
constexpr int kPairsPerThread = 8;

// --- data ------------------------------------------------------------------
// The lab's default data: n integers in [lo, hi] from std::mt19937(seed), the
// same for every variant and every run with the same arguments.
constexpr uint32_t kDefaultSeed = 20240607u;
std::vector<int32_t> make_data(size_t n, int32_t lo = -100, int32_t hi = 100,
                               uint32_t seed = kDefaultSeed);

// --- the thread grid picture ---------------------------------------------------
// For the 2D kernels: how many threads a launch over n values with block (x, y)
// starts, how many sit on the upper triangle (i < j < n), how many of those have
// at least one k to scan (j < n - 1), and blocks with no working thread at all.
struct GridUsage {
  uint64_t grid_x = 0, grid_y = 0;  // blocks
  uint64_t blocks = 0;
  uint64_t idle_blocks = 0;     // no thread of the block has a pair i < j < n - 1
  uint64_t threads = 0;         // launched
  uint64_t upper_triangle = 0;  // threads with i < j < n
  uint64_t working = 0;         // threads with i < j < n - 1 (the inner loop runs)
  uint64_t idle() const { return threads - working; }
};
GridUsage grid_usage(uint64_t n, const BlockShape& block);

// --- CPU ---------------------------------------------------------------------
// Both poll `cancel` (when given) and return early once it is set; the value
// returned then is meaningless and must be discarded by the caller who set it.
// path: the instruction set of the brute-force loop (tests force each one).
uint64_t count_cpu_serial(const int32_t* v, size_t n, const std::atomic<bool>* cancel = nullptr,
                          SimdPath path = default_simd_path());
uint64_t count_cpu(const int32_t* v, size_t n, const std::atomic<bool>* cancel = nullptr,
                   SimdPath path = default_simd_path());
uint64_t count_cpu_sorted(const int32_t* v, size_t n, const std::atomic<bool>* cancel = nullptr);
// Single-threaded, loop-as-written references for tests.
uint64_t count_reference(const int32_t* v, size_t n);

// --- GPU ---------------------------------------------------------------------
// Holds the data on the device and the scratch each variant needs, so repeated
// runs allocate nothing.
class Sum3Gpu {
 public:
  // Uploads n values (synchronously).
  Sum3Gpu(const int32_t* host, size_t n);
  size_t size() const { return n_; }

  // Enqueues `v` (a GPU variant) on s with the caller's block shape, validated
  // first against the device and the grid limits (std::invalid_argument).
  void run(Variant v, const BlockShape& block, cudaStream_t s);
  // Waits for s and returns the last run's count.
  uint64_t result(cudaStream_t s);

 private:
  void run_fast(const BlockShape& block, cudaStream_t s);
  void run_sorted(const BlockShape& block, cudaStream_t s);

  size_t n_;
  DeviceBuffer<int32_t> values_;
  DeviceBuffer<unsigned long long> count_;
  // fast: block index -> (i tile, j tile), rebuilt when the thread count changes
  DeviceBuffer<uint2> tiles_;
  long long tiles_threads_ = 0;
  size_t tiles_count_ = 0;
  // sorted
  DeviceBuffer<int32_t> sorted_;
  DeviceBuffer<unsigned char> sort_temp_;
  size_t sort_temp_bytes_ = 0;
};

}  // namespace cv::sum3
