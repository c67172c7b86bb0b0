// CUDA variants of the pi lab. See pi.h for what each one demonstrates.
#include <curand_kernel.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "common/block_sum.cuh"
#include "common/cuda_check.h"
#include "common/device_info.h"
#include "common/launch.h"
#include "labs/pi/pi.h"
#include "labs/pi/pi_math.h"

namespace cv::pi {
namespace {

// Bounds on one launch: entries of the flags / partials buffer, and threads of
// the original variant (its cuRAND states take 48 bytes each).
constexpr uint64_t kChunkEntries = uint64_t{1} << 24;
constexpr uint64_t kSeedChunkThreads = uint64_t{1} << 22;

// --- original (000) ---------------------------------------------------------------
__global__ void original_init(curandState* states, uint64_t seed, uint64_t first_id, unsigned threads) {
  const unsigned long long i = flat_global_thread();
  if (i >= threads) return;
  curand_init(seed, first_id + i, 0, &states[i]);
}

// As document 000: per-thread count in global memory, curand_uniform in (0, 1], x*x + y*y <= 1.
__global__ void original_generate(curandState* states, int* counts, uint64_t count, unsigned threads) {
  const unsigned long long i = flat_global_thread();
  if (i >= threads) return;
  const uint64_t first = i * kSeedPerThread;
  const unsigned todo =
      static_cast<unsigned>(min(static_cast<uint64_t>(kSeedPerThread), count - first));
  curandState local = states[i];
  for (unsigned k = 0; k < todo; ++k) {
    const float x = curand_uniform(&local);
    const float y = curand_uniform(&local);
    if (x * x + y * y <= 1.f) counts[i]++;
  }
  states[i] = local;
}

// --- 003 versions 1 and 2: one sample per thread, one flag per sample ------------
__global__ void flag_kernel(uint32_t* __restrict__ flags, uint64_t base, uint64_t count,
                            uint64_t seed) {
  const unsigned long long i = flat_global_thread();
  if (i < count) flags[i] = sample_hit(seed, base + i);
}

// --- 003 version 3: one sample per thread, shared-memory tree, a count per block --
__global__ void shared_kernel(uint32_t* __restrict__ partials, uint64_t base, uint64_t count,
                              uint64_t seed) {
  extern __shared__ uint32_t sh[];
  const unsigned long long i = flat_global_thread();
  sh[flat_thread()] = i < count ? sample_hit(seed, base + i) : 0u;
  shared_tree_sum(sh);
  if (flat_thread() == 0) partials[blockIdx.x] = sh[0];
}

// --- 003 version 4: kManyPerThread samples per thread, shared tree per block ----
__global__ void many_kernel(uint32_t* __restrict__ partials, uint64_t base, uint64_t count,
                            uint64_t seed, PhiloxKey key) {
  extern __shared__ uint32_t sh[];
  const uint64_t first = flat_global_thread() * kManyPerThread;  // base + first is a multiple of 3
  uint32_t hits = 0;
  if (first < count) {
    const uint64_t end = min(count, first + static_cast<uint64_t>(kManyPerThread));
    uint64_t k = first;
    for (; k + kPerCall <= end; k += kPerCall)
      hits += call_hits(call_words(key, (base + k) / kPerCall));
    for (; k < end; ++k) hits += sample_hit(seed, base + k);
  }
  sh[flat_thread()] = hits;
  shared_tree_sum(sh);
  if (flat_thread() == 0) partials[blockIdx.x] = sh[0];
}

// Adds partials[0, m) to *acc (the second pass of the flag/partials variants).
__global__ void sum_partials(const uint32_t* __restrict__ partials, uint64_t m,
                             unsigned long long* acc) {
  __shared__ unsigned long long scratch[32];
  unsigned long long v = 0;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * block_threads();
  for (unsigned long long i = flat_global_thread(); i < m; i += stride) v += partials[i];
  v = block_sum(v, scratch);
  if (flat_thread() == 0 && v) atomicAdd(acc, v);
}

// --- ours ----------------------------------------------------------------------
// Each thread takes a contiguous run of whole Philox calls (no state array:
// the counter is the call index), three samples a call; block sum by warp
// shuffles, one atomic per block. The last n % 3 samples go to thread 0.
// The inner loop keeps the counter's high word fixed and counts in 32 bits, so
// it spends almost nothing besides Philox and the inside test (the kernel is
// bound by integer issue, not memory).
__global__ void fast_kernel(unsigned long long* acc, uint64_t n, uint64_t seed, PhiloxKey key) {
  __shared__ unsigned long long scratch[32];
  const uint64_t calls = n / kPerCall;
  const uint64_t threads = static_cast<uint64_t>(gridDim.x) * block_threads();
  const uint64_t t = flat_global_thread();
  const uint64_t per = calls / threads, extra = calls % threads;
  uint64_t q = t * per + min(t, extra);
  const uint64_t q_end = q + per + (t < extra ? 1 : 0);
  unsigned long long hits = 0;
  while (q < q_end) {
    // A segment: same high word, at most 2^30 calls (3 * 2^30 hits fit 32 bits).
    const uint64_t seg_end = min(q_end, min((q | uint64_t{0xffffffff}) + 1, q + (uint64_t{1} << 30)));
    const uint32_t hi = static_cast<uint32_t>(q >> 32), lo0 = static_cast<uint32_t>(q);
    const uint32_t len = static_cast<uint32_t>(seg_end - q);
    uint32_t h = 0;
#pragma unroll 2
    for (uint32_t j = 0; j < len; ++j)
      h += call_hits(philox4x32_10(Words4{{lo0 + j, hi, 0u, 0u}}, key));
    hits += h;
    q = seg_end;
  }
  if (t == 0)
    for (uint64_t s = calls * kPerCall; s < n; ++s) hits += sample_hit(seed, s);
  hits = block_sum(hits, scratch);
  if (flat_thread() == 0 && hits) atomicAdd(acc, hits);
}

// Launch one pass of a flag/partials variant, then add its m partials to acc.
void sum_pass(uint32_t* partials, uint64_t m, unsigned long long* acc, const BlockShape& block,
              cudaStream_t s) {
  const dim3 grid(static_cast<unsigned>(std::min<uint64_t>(ceil_div(m, block.threads()), 4096)));
  sum_partials<<<grid, to_dim3(block), 0, s>>>(partials, m, acc);
  cuda_check_launch("pi sum_partials<<<>>>");
}

}  // namespace

std::optional<KernelAttributes> kernel_attributes(Variant v) {
  const auto q = [](auto* f, const char* name, DynamicShared d = {}) {
    return query_kernel_attributes(reinterpret_cast<const void*>(f), name, d);
  };
  switch (v) {
    case Variant::Original:
      return q(&original_generate, "pi original_generate");
    case Variant::OnePerBlock:
    case Variant::Warp32:
      return q(&flag_kernel, "pi flag_kernel");
    case Variant::Shared:
      return q(&shared_kernel, "pi shared_kernel", DynamicShared{4, 0});
    case Variant::Many:
      return q(&many_kernel, "pi many_kernel", DynamicShared{4, 0});
    case Variant::Fast:
      return q(&fast_kernel, "pi fast_kernel");
    default:
      return std::nullopt;
  }
}

PiGpu::PiGpu() : acc_(1) {}

void PiGpu::run(Variant v, uint64_t n, uint64_t seed, const BlockShape& requested, cudaStream_t s) {
  if (!is_gpu(v))
    throw std::invalid_argument(std::string("pi: ") + to_string(v) + " is not a GPU variant");
  const BlockShape block = effective_block(v, requested);
  // The partials pass runs with the caller's block, so that one is checked too.
  require_valid(requested);
  const long long threads = block.threads();
  const long long shared = (v == Variant::Shared || v == Variant::Many) ? threads * 4 : 0;
  require_valid(block, shared);
  host_result_ = false;
  if (v == Variant::Original) return run_original(n, seed, block, s);
  CV_CUDA(cudaMemsetAsync(acc_.get(), 0, sizeof(unsigned long long), s));
  if (n == 0) return;
  if (v == Variant::Fast) {
    int per_sm = 0;
    CV_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fast_kernel,
                                                          static_cast<int>(threads), 0));
    const uint64_t resident = static_cast<uint64_t>(std::max(per_sm, 1)) * device_info().sm_count;
    const uint64_t needed =
        std::max<uint64_t>(1, ceil_div(n / kPerCall, static_cast<unsigned long long>(threads)));
    const dim3 grid(static_cast<unsigned>(std::min(resident, needed)));
    fast_kernel<<<grid, to_dim3(block), 0, s>>>(acc_.get(), n, seed, philox_key(seed));
    cuda_check_launch("pi fast_kernel<<<>>>");
    return;
  }
  if (!partials_.size()) partials_ = DeviceBuffer<uint32_t>(kChunkEntries);
  // Samples per partial entry: one (flags), a block's worth (shared), or a block's times
  // kManyPerThread.
  const uint64_t per_entry = v == Variant::Shared ? threads
                             : v == Variant::Many ? threads * kManyPerThread
                                                  : 1;
  const uint64_t per_launch = per_entry * kChunkEntries;
  for (uint64_t base = 0; base < n; base += per_launch) {
    const uint64_t count = std::min(per_launch, n - base);
    const uint64_t entries = ceil_div(count, per_entry);
    if (v == Variant::OnePerBlock || v == Variant::Warp32) {
      flag_kernel<<<grid_1d(count, block), to_dim3(block), 0, s>>>(partials_.get(), base, count,
                                                                   seed);
      cuda_check_launch("pi flag_kernel<<<>>>");
    } else if (v == Variant::Shared) {
      shared_kernel<<<static_cast<unsigned>(entries), to_dim3(block), shared, s>>>(
          partials_.get(), base, count, seed);
      cuda_check_launch("pi shared_kernel<<<>>>");
    } else {
      many_kernel<<<static_cast<unsigned>(entries), to_dim3(block), shared, s>>>(
          partials_.get(), base, count, seed, philox_key(seed));
      cuda_check_launch("pi many_kernel<<<>>>");
    }
    sum_pass(partials_.get(), entries, acc_.get(), requested, s);
  }
}

void PiGpu::run_original(uint64_t n, uint64_t seed, const BlockShape& block, cudaStream_t s) {
  if (!original_counts_.size()) {
    original_counts_ = DeviceBuffer<int>(kSeedChunkThreads);
    original_states_ = DeviceBuffer<unsigned char>(kSeedChunkThreads * sizeof(curandState));
  }
  auto* states = reinterpret_cast<curandState*>(original_states_.get());
  const uint64_t per_launch = kSeedChunkThreads * kSeedPerThread;
  uint64_t total = 0;
  for (uint64_t base = 0; base < n; base += per_launch) {
    const uint64_t count = std::min(per_launch, n - base);
    const unsigned threads = static_cast<unsigned>(ceil_div(count, kSeedPerThread));
    const uint64_t first_id = base / kSeedPerThread;  // distinct subsequences across launches
    CV_CUDA(cudaMemsetAsync(original_counts_.get(), 0, threads * sizeof(int), s));
    original_init<<<grid_1d(threads, block), to_dim3(block), 0, s>>>(states, seed, first_id, threads);
    cuda_check_launch("pi original_init<<<>>>");
    original_generate<<<grid_1d(threads, block), to_dim3(block), 0, s>>>(states, original_counts_.get(),
                                                                     count, threads);
    cuda_check_launch("pi original_generate<<<>>>");
    const int* c = original_counts_.get();
    total += thrust::reduce(thrust::cuda::par.on(s), c, c + threads, 0ull,
                            thrust::plus<unsigned long long>());
  }
  host_hits_ = total;
  host_result_ = true;
}

uint64_t PiGpu::hits(cudaStream_t s) {
  if (host_result_) return host_hits_;
  unsigned long long h = 0;
  CV_CUDA(cudaMemcpyAsync(&h, acc_.get(), sizeof h, cudaMemcpyDeviceToHost, s));
  CV_CUDA(cudaStreamSynchronize(s));
  return h;
}

}  // namespace cv::pi
