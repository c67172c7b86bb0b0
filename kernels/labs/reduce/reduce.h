#pragma once
// Counting multiples of 3 and summing an int32 array (document 001): the racy
// kernel, per-element atomics, library peers and hand-written reductions on the
// GPU, and serial / threaded twins on the CPU. Both labs return an exact
// int64_t: a count, or the sum of int32 values taken in 64 bits.
//
// 1D kernels flatten the caller's block: a block of x*y*z threads is used as a
// row of x*y*z threads (see common/block_sum.cuh).
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
#include "common/name_table.h"

namespace cv::reduce {

enum class Op { Count3, Sum };
const char* to_string(Op op);  // "count3" / "reduce" (the bench names)

enum class Variant {
  Racy,         // the document's `count++` on a global without atomics: wrong on purpose
  Atomic,       // one atomicAdd per element that contributes
  Thrust,       // thrust::count_if / thrust::reduce (peer)
  Multipass,    // the document's halving passes, then one block sums in shared memory
  SharedTree,   // shared-memory tree per block, one atomic per block
  WarpShuffle,  // warp shuffles, one atomic per warp, no shared memory
  Cub,          // cub::DeviceReduce (the reference peer)
  Fast,         // ours: 16-byte loads, grid-stride, shuffles, one atomic per block
  CpuSerial,
  CpuThreads,
};
// The variants, written once (common/name_table.h): the CLI spelling and what
// the combo adds, in the order benches run them and combos list them.
inline constexpr Named<Variant> kVariants[] = {
    {Variant::Racy, "racy"},
    {Variant::Atomic, "atomic"},
    {Variant::Thrust, "thrust"},
    {Variant::Multipass, "multipass"},
    {Variant::SharedTree, "shared_tree"},
    {Variant::WarpShuffle, "warp_shuffle"},
    {Variant::Cub, "cub"},
    {Variant::Fast, "fast"},
    {Variant::CpuSerial, "cpu"},
    {Variant::CpuThreads, "cpu_threads"},
};
const char* to_string(Variant v);
std::optional<Variant> parse_variant(const std::string& name);
const std::vector<Variant>& all_variants();
bool is_gpu(Variant v);

// Largest n the GPU variants take (counts of the multipass variant use 32 bits).
constexpr size_t kMaxElements = (size_t{1} << 32) - 1;

// --- CPU ------------------------------------------------------------------
// Both poll `cancel` (when given) every few million elements and return early
// once it is set; the value returned then is meaningless and the caller, who
// set the flag, must discard it.
// path: the instruction set of the loop (tests force each one).
int64_t cpu_serial(Op op, const int32_t* a, size_t n, const std::atomic<bool>* cancel = nullptr,
                   SimdPath path = default_simd_path());
int64_t cpu_threads(Op op, const int32_t* a, size_t n, const std::atomic<bool>* cancel = nullptr,
                    SimdPath path = default_simd_path());

// --- GPU ------------------------------------------------------------------
// Runs the GPU variants of one lab on device data. Owns the scratch each
// variant needs (multipass partials, CUB temporary storage, the result
// counter), sized for up to max_n elements, so repeated runs allocate nothing
// (thrust allocates inside its own calls, as it does for any user).
class ReduceGpu {
 public:
  ReduceGpu(Op op, size_t max_n);
  Op op() const { return op_; }

  // Enqueues `v` (a GPU variant) on stream s over d_in[0, n) with the caller's
  // block shape, validated first (std::invalid_argument when bad). The result
  // stays on the device until result(); Thrust returns it to the host itself,
  // so that variant synchronizes inside run().
  void run(Variant v, const int32_t* d_in, size_t n, const BlockShape& block, cudaStream_t s);
  // Waits for s and returns the last run's answer.
  int64_t result(cudaStream_t s);

 private:
  void run_cub(const int32_t* d_in, size_t n, cudaStream_t s);
  int64_t run_thrust(const int32_t* d_in, size_t n, cudaStream_t s);

  Op op_;
  size_t max_n_;
  DeviceBuffer<unsigned long long> acc_;  // the answer (two's complement for sums)
  DeviceBuffer<unsigned char> scratch_;   // multipass partials
  DeviceBuffer<unsigned char> cub_temp_;
  size_t cub_temp_bytes_ = 0;
  bool host_result_ = false;  // the last run left its answer in host_value_
  int64_t host_value_ = 0;
};

// The fast reduction as a building block for other labs: adds the sum of
// d_in[0, n) to *d_acc (a 64-bit two's-complement accumulator) on stream s.
void sum_into(const int32_t* d_in, size_t n, unsigned long long* d_acc, const BlockShape& block,
              cudaStream_t s);

// Deterministic lab data: n int32 values spread over the whole int32 range (a
// third of them multiples of 3, sums far outside 32 bits), a pure function of
// (seed, index), generated in parallel. A set `cancel` stops it early (the
// values are then incomplete: the caller checks the flag before using them).
std::vector<int32_t> make_data(size_t n, uint64_t seed,
                               const std::atomic<bool>* cancel = nullptr);
// make_data(n, seed) written straight into device memory on stream s (the
// runner's inputs: no host array, no upload).
void make_data_on_device(int32_t* d_out, size_t n, uint64_t seed, cudaStream_t s);
// cpu_threads(op, make_data(n, seed)) without the array: each value drawn
// where it is counted (the verdict's reference at 16M values in milliseconds).
int64_t cpu_threads_generated(Op op, size_t n, uint64_t seed);

}  // namespace cv::reduce
