#pragma once
// Vector reversal (document 001): out[i] = in[n - 1 - i] for int32 arrays.
//   naive   one element per thread, reads mirrored (the document's simple kernel)
//   shared  each block stages a tile of kItemsPerThread elements a thread in
//           shared memory, so both the reads and the writes are contiguous and
//           ascending (the document's "better version", generalized to any block)
//   copy    cudaMemcpyDeviceToDevice of the same bytes: the bandwidth yardstick
//           (it copies, it does not reverse)
//   cpu, cpu_threads
// 1D kernels use the caller's block as a row of x*y*z threads.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/block_shape.h"
#include "common/kernel_attributes.h"
#include "common/name_table.h"

namespace cv::reverse {

enum class Variant { Naive, Shared, Copy, CpuSerial, CpuThreads };
// The variants, written once (common/name_table.h): the CLI spelling and what
// the combo adds, in the order benches run them and combos list them.
inline constexpr Named<Variant> kVariants[] = {
    {Variant::Naive, "naive"},
    {Variant::Shared, "shared"},
    {Variant::Copy, "copy"},
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
std::optional<KernelAttributes> kernel_attributes(Variant v);

constexpr int kItemsPerThread = 4;

// Enqueues v (a GPU variant) on s; d_out must not overlap d_in. Validates the
// block (std::invalid_argument).
void run_gpu(Variant v, const int32_t* d_in, int32_t* d_out, size_t n, const BlockShape& block,
             cudaStream_t s);

void reverse_cpu(const int32_t* in, int32_t* out, size_t n);
void reverse_cpu_threads(const int32_t* in, int32_t* out, size_t n);

}  // namespace cv::reverse
