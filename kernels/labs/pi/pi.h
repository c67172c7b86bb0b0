#pragma once
// The Monte-Carlo pi lab (documents 000, 003): count the samples of the unit square
// that fall inside the quarter circle; pi ~ 4 * hits / n.
//
// Variants:
//   seed           the 000 design: cuRAND XORWOW state per thread (curand_init),
//                  1000 samples a thread, per-thread counts in global memory,
//                  thrust::reduce. Timed as the seed runs it: init + sample + reduce.
//   one_per_block  003 version 1: one sample per 1-thread block, a flag per sample.
//   warp32         003 version 2: one sample per thread in 32-thread blocks, a flag per sample.
//   shared         003 version 3: one sample per thread, shared-memory tree, a count per block.
//   many           003 version 4: kManyPerThread samples per thread, shared-memory tree per block.
//   fast           ours: grid-stride over Philox calls (three samples each) on a grid
//                  of the device's resident blocks, warp-shuffle block sums, one
//                  64-bit atomic per block.
//   cpu, cpu_threads  the same Philox stream on the CPU, serial and threaded.
// All but `seed` sample the same points (pi_math.h), so their hit counts are
// identical; `seed` is a different generator and agrees only statistically.
// Counts are 64-bit: more than 2^32 samples work.
#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/block_shape.h"
#include "common/cuda_resources.h"
#include "common/kernel_attributes.h"
#include "common/name_table.h"

namespace cv::pi {

enum class Variant { Original, OnePerBlock, Warp32, Shared, Many, Fast, CpuSerial, CpuThreads };
// The variants, written once (common/name_table.h): the CLI spelling and what
// the combo adds, in the order benches run them and combos list them.
inline constexpr Named<Variant> kVariants[] = {
    // The original: the kernel as its reference document writes it; "seed" is
    // its older spelling, still taken from scripts and presets (docs/architecture.md, Words).
    {Variant::Original, "original", "", "seed"},
    {Variant::OnePerBlock, "one_per_block"},
    {Variant::Warp32, "warp32"},
    {Variant::Shared, "shared"},
    {Variant::Many, "many"},
    {Variant::Fast, "fast"},
    {Variant::CpuSerial, "cpu"},
    {Variant::CpuThreads, "cpu_threads"},
};
const char* to_string(Variant v);
std::optional<Variant> parse_variant(const std::string& name);
const std::vector<Variant>& all_variants();
bool is_gpu(Variant v);
// The kernel a GPU variant launches for its main work, with its dynamic shared
// memory, for the tuning panels; nullopt for variants without one of ours (CPU,
// library calls). Never throws: CUDA errors are in the result.
// Occupancy applies to effective_block(v, requested), the block it really runs.
std::optional<KernelAttributes> kernel_attributes(Variant v);

constexpr unsigned kSeedPerThread = 1000;  // the document's NUM_POINTS_PER_THREAD
constexpr unsigned kManyPerThread = 1020;  // a multiple of 3: every thread starts on a Philox call

// The block a variant runs with: one_per_block and warp32 fix theirs (that is
// what they demonstrate); the others use the caller's.
BlockShape effective_block(Variant v, const BlockShape& requested);

// CPU twins: hits among samples [0, n) of stream `seed`. They poll `cancel`
// (when given) and return early once it is set; the value is then meaningless.
uint64_t cpu_serial(uint64_t n, uint64_t seed, const std::atomic<bool>* cancel = nullptr);
uint64_t cpu_threads(uint64_t n, uint64_t seed, const std::atomic<bool>* cancel = nullptr);

// The GPU variants. Owns the scratch they need (flags/partials chunk, cuRAND
// states, the 64-bit counter) so repeated runs allocate nothing; big runs are
// split into launches of bounded size.
class PiGpu {
 public:
  PiGpu();

  // Enqueues variant v (a GPU one) over n samples of stream `seed` on s with the
  // caller's block (validated first: std::invalid_argument with the reason).
  // `seed` synchronizes inside (thrust returns its sum to the host).
  void run(Variant v, uint64_t n, uint64_t seed, const BlockShape& block, cudaStream_t s);
  // Waits for s and returns the last run's hits.
  uint64_t hits(cudaStream_t s);

 private:
  void run_original(uint64_t n, uint64_t seed, const BlockShape& block, cudaStream_t s);
  DeviceBuffer<unsigned long long> acc_;
  DeviceBuffer<uint32_t> partials_;  // flags or per-block counts of one launch
  DeviceBuffer<int> original_counts_;
  DeviceBuffer<unsigned char> original_states_;  // curandState per thread of one launch, on first use
  bool host_result_ = false;
  uint64_t host_hits_ = 0;
};

}  // namespace cv::pi
