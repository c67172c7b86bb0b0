// CUDA kernels of the co-related ids lab: the document's block-per-pair kernels
// (atomic and shared-memory counting), thread-per-pair launch shapes, and ours.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "common/block_sum.cuh"
#include "common/launch.h"
#include "labs/corelated/corelated.h"
#include "labs/corelated/corelated_math.h"

namespace cv::corelated {
namespace {

constexpr unsigned long long kMaxGridY = 65535;
constexpr unsigned long long kMaxPairCounters = 1ull << 28;  // atomic's per-pair counters: 1 GiB

struct DeviceRows {
  const int32_t* ids;
  const uint32_t* offsets;
  unsigned rows;
  __device__ const int32_t* row(unsigned r) const { return ids + offsets[r]; }
  __device__ uint32_t length(unsigned r) const { return offsets[r + 1] - offsets[r]; }
};

// Block (x, y) is the pair (r, s); threads walk the ids of row r. Every id found
// in row s is an atomicAdd on the pair's counter in global memory (seed exp14.1).
__global__ void atomic_hits_kernel(DeviceRows d, uint32_t* pair_counts) {
  const unsigned r = blockIdx.x, s = blockIdx.y;
  if (r >= s) return;  // the lower triangle and the diagonal idle, as in the seed
  const int32_t* a = d.row(r);
  const int32_t* b = d.row(s);
  const uint32_t la = d.length(r), lb = d.length(s);
  for (uint32_t x = flat_thread(); x < la; x += block_threads()) {
    const int32_t v = a[x];
    for (uint32_t y = 0; y < lb; ++y)
      if (b[y] == v) {
        atomicAdd(&pair_counts[pair_index(d.rows, r, s)], 1u);
        break;
      }
  }
}

// Pairs whose counter is over the threshold; one atomic per block.
__global__ void count_over_kernel(const uint32_t* pair_counts, unsigned long long pairs,
                                  uint32_t threshold, unsigned long long* count) {
  __shared__ unsigned long long scratch[32];
  unsigned long long c = 0;
  for (unsigned long long p = flat_global_thread(); p < pairs;
       p += static_cast<unsigned long long>(gridDim.x) * block_threads())
    c += pair_counts[p] > threshold;
  c = block_sum(c, scratch);
  if (flat_thread() == 0 && c > 0) atomicAdd(count, c);
}

// Same grid; each thread counts its found ids in shared memory, a tree sums the
// block, one atomic per co-related pair.
__global__ void shared_kernel(DeviceRows d, uint32_t threshold, unsigned long long* count) {
  extern __shared__ unsigned found[];
  const unsigned r = blockIdx.x, s = blockIdx.y;
  if (r >= s) return;  // uniform for the whole block, before any barrier
  const int32_t* a = d.row(r);
  const int32_t* b = d.row(s);
  const uint32_t la = d.length(r), lb = d.length(s);
  unsigned mine = 0;
  for (uint32_t x = flat_thread(); x < la; x += block_threads()) {
    const int32_t v = a[x];
    bool hit = false;
    for (uint32_t y = 0; y < lb; ++y) hit |= b[y] == v;
    mine += hit;
  }
  found[flat_thread()] = mine;
  shared_tree_sum(found);
  if (flat_thread() == 0 && found[0] > threshold) atomicAdd(count, 1ull);
}

// (r, s) of pair p on the row-major upper triangle.
__device__ void decode_pair(unsigned long long p, unsigned rows, unsigned* r, unsigned* s) {
  const double m = 2.0 * rows - 1.0;
  long long x = static_cast<long long>((m - sqrt(m * m - 8.0 * static_cast<double>(p))) / 2.0);
  if (x < 0) x = 0;
  if (x > static_cast<long long>(rows) - 2) x = rows - 2;
  while (x > 0 && pair_index(rows, x, x + 1) > p) --x;
  while (x + 1 <= static_cast<long long>(rows) - 2 && pair_index(rows, x + 1, x + 2) <= p) ++x;
  *r = static_cast<unsigned>(x);
  *s = static_cast<unsigned>(p - pair_index(rows, x, x + 1) + x + 1);
}

// One thread per pair on a 1D grid over the triangle; `merge` picks the per-pair
// algorithm (the document's double loop, or ours over sorted rows).
template <bool merge>
__global__ void pair_1d_kernel(DeviceRows d, unsigned long long pairs, uint32_t threshold,
                               unsigned long long* count) {
  __shared__ unsigned long long scratch[32];
  const unsigned long long p = flat_global_thread();
  unsigned long long c = 0;
  if (p < pairs) {
    unsigned r, s;
    decode_pair(p, d.rows, &r, &s);
    const uint32_t shared = merge ? shared_sorted(d.row(r), d.length(r), d.row(s), d.length(s))
                                  : shared_linear(d.row(r), d.length(r), d.row(s), d.length(s));
    c = shared > threshold;
  }
  c = block_sum(c, scratch);
  if (flat_thread() == 0 && c > 0) atomicAdd(count, c);
}

// One thread per pair on a 2D grid: x -> r, y -> s; threads with r >= s idle.
__global__ void pair_2d_kernel(DeviceRows d, uint32_t threshold, unsigned long long* count) {
  __shared__ unsigned long long scratch[32];
  const unsigned r = threadIdx.x + blockDim.x * blockIdx.x;
  const unsigned s = threadIdx.y + blockDim.y * blockIdx.y;
  unsigned long long c = 0;
  if (r < s && s < d.rows)
    c = shared_linear(d.row(r), d.length(r), d.row(s), d.length(s)) > threshold;
  c = block_sum(c, scratch);
  if (flat_thread() == 0 && c > 0) atomicAdd(count, c);
}

// Ours: the caller's 2D block is a tile of bx x by pairs (r = r0 + x, s = s0 + y).
// The tile's bx + by bitset rows pass through shared memory `chunk` words at a
// time (rows padded by one word so the x-rows fall in different banks).
__global__ void bitset_kernel(const uint32_t* __restrict__ bits, unsigned rows, unsigned words,
                              unsigned chunk, uint32_t threshold, unsigned long long* count) {
  extern __shared__ uint32_t tile[];
  __shared__ unsigned long long scratch[32];
  const unsigned bx = blockDim.x, by = blockDim.y, stride = chunk + 1;
  const unsigned r0 = blockIdx.x * bx, s0 = blockIdx.y * by;
  const unsigned s_last = min(s0 + by, rows) - 1;
  if (r0 >= s_last) return;  // no pair r < s in this tile: uniform for the block
  uint32_t* a = tile;
  uint32_t* b = tile + bx * stride;
  const unsigned t = flat_thread(), T = block_threads();
  unsigned shared = 0;
  for (unsigned w0 = 0; w0 < words; w0 += chunk) {
    const unsigned cw = min(chunk, words - w0);
    __syncthreads();  // the previous chunk is consumed
    for (unsigned idx = t; idx < (bx + by) * cw; idx += T) {
      const unsigned row = idx / cw, w = idx % cw;
      const unsigned g = row < bx ? r0 + row : s0 + (row - bx);
      tile[row * stride + w] = g < rows ? bits[static_cast<size_t>(g) * words + w0 + w] : 0u;
    }
    __syncthreads();
    const uint32_t* ar = a + threadIdx.x * stride;
    const uint32_t* br = b + threadIdx.y * stride;
    for (unsigned w = 0; w < cw; ++w) shared += __popc(ar[w] & br[w]);
  }
  const unsigned r = r0 + threadIdx.x, s = s0 + threadIdx.y;
  unsigned long long c = r < s && s < rows && shared > threshold;
  c = block_sum(c, scratch);
  if (t == 0 && c > 0) atomicAdd(count, c);
}

constexpr size_t kMaxBitsetIds = 1 << 16;
constexpr size_t kMaxBitsetBytes = size_t{512} << 20;
constexpr long long kBitsetSharedBytes = 40 * 1024;  // leaves room for the reduction scratch

std::string rows_text(size_t rows) {
  return std::to_string(rows) + " rows";
}

}  // namespace

CorelatedGpu::CorelatedGpu(const Rows& rows)
    : rows_(rows.rows()), ids_(rows.ids.size()), offsets_(rows.offsets.size()), count_(1) {
  if (rows_ > 0xffffffffull / 2) throw std::invalid_argument("corelated: too many rows");
  if (!rows.ids.empty())
    CV_CUDA(cudaMemcpy(ids_.get(), rows.ids.data(), ids_.bytes(), cudaMemcpyHostToDevice));
  CV_CUDA(
      cudaMemcpy(offsets_.get(), rows.offsets.data(), offsets_.bytes(), cudaMemcpyHostToDevice));
  // Bitsets for `fast` when the distinct ids are few enough.
  std::vector<int32_t> distinct(rows.ids);
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  const size_t words = (distinct.size() + 31) / 32;
  if (!distinct.empty() && distinct.size() <= kMaxBitsetIds &&
      rows_ * words * 4 <= kMaxBitsetBytes) {
    std::vector<uint32_t> host(rows_ * words, 0u);
    for (size_t r = 0; r < rows_; ++r)
      for (uint32_t x = rows.offsets[r]; x < rows.offsets[r + 1]; ++x) {
        const size_t rank =
            std::lower_bound(distinct.begin(), distinct.end(), rows.ids[x]) - distinct.begin();
        host[r * words + rank / 32] |= 1u << (rank % 32);
      }
    bits_ = DeviceBuffer<uint32_t>(host.size());
    CV_CUDA(cudaMemcpy(bits_.get(), host.data(), bits_.bytes(), cudaMemcpyHostToDevice));
    words_ = static_cast<unsigned>(words);
  }
  // Pageable copies may still be in flight when cudaMemcpy returns, and the
  // kernels run on the caller's non-blocking stream: wait once here.
  CV_CUDA(cudaDeviceSynchronize());
}

void CorelatedGpu::run(Variant v, int threshold, const BlockShape& block, cudaStream_t s) {
  if (!is_gpu(v))
    throw std::invalid_argument(std::string("corelated: ") + to_string(v) +
                                " is not a GPU variant");
  if (threshold < 0) throw std::invalid_argument("corelated: the threshold must be >= 0");
  const uint32_t th = static_cast<uint32_t>(threshold);
  const unsigned long long pairs = pair_count(rows_);
  const std::string name = to_string(v);
  long long shared_bytes =
      v == Variant::Shared ? block.threads() * static_cast<long long>(sizeof(unsigned)) : 0;
  require_valid(block, shared_bytes);
  if ((v == Variant::Atomic || v == Variant::Shared) && rows_ > kMaxGridY)
    throw std::invalid_argument(name + " launches one block per pair of rows: " + rows_text(rows_) +
                                " exceed the grid limit of 65535 in y");
  if (v == Variant::Atomic && pairs > kMaxPairCounters)
    throw std::invalid_argument("atomic keeps a counter per pair: " + rows_text(rows_) + " make " +
                                std::to_string(pairs) + " pairs, over the limit of " +
                                std::to_string(kMaxPairCounters));
  if (v == Variant::Launch2d) {
    if (block.z != 1)
      throw std::invalid_argument("launch2d takes a 2D block (x, y); got " + cv::to_string(block));
    if ((rows_ + block.y - 1) / block.y > kMaxGridY)
      throw std::invalid_argument("launch2d: " + rows_text(rows_) + " with block " +
                                  cv::to_string(block) +
                                  " need more than 65535 blocks in y (use a taller block)");
  }
  const bool bitsets = v == Variant::Fast && words_ > 0;
  if (bitsets) {
    if (block.z != 1)
      throw std::invalid_argument("fast takes a 2D block (x, y) as its tile of pairs; got " +
                                  cv::to_string(block));
    if ((rows_ + block.y - 1) / block.y > kMaxGridY)
      throw std::invalid_argument("fast: " + rows_text(rows_) + " with block " +
                                  cv::to_string(block) +
                                  " need more than 65535 blocks in y (use a taller block)");
  }
  if (!bitsets && (v == Variant::Launch1d || v == Variant::Fast) &&
      (pairs + block.threads() - 1) / block.threads() > 0x7fffffffull)
    throw std::invalid_argument(name + ": " + rows_text(rows_) + " make " + std::to_string(pairs) +
                                " pairs, more than a 1D grid of " + cv::to_string(block) +
                                " blocks covers");
  CV_CUDA(cudaMemsetAsync(count_.get(), 0, sizeof(unsigned long long), s));
  if (rows_ < 2) return;
  const DeviceRows d{ids_.get(), offsets_.get(), static_cast<unsigned>(rows_)};
  const unsigned R = static_cast<unsigned>(rows_);
  switch (v) {
    case Variant::Atomic: {
      if (pair_counts_.size() < pairs) pair_counts_ = DeviceBuffer<uint32_t>(pairs);
      CV_CUDA(cudaMemsetAsync(pair_counts_.get(), 0, pairs * sizeof(uint32_t), s));
      atomic_hits_kernel<<<dim3(R, R), to_dim3(block), 0, s>>>(d, pair_counts_.get());
      cuda_check_launch("corelated atomic_hits_kernel<<<>>>");
      const unsigned blocks =
          static_cast<unsigned>(std::min<unsigned long long>(grid_1d(pairs, block).x, 65536));
      count_over_kernel<<<blocks, to_dim3(block), 0, s>>>(pair_counts_.get(), pairs, th,
                                                          count_.get());
      cuda_check_launch("corelated count_over_kernel<<<>>>");
      break;
    }
    case Variant::Shared:
      shared_kernel<<<dim3(R, R), to_dim3(block), shared_bytes, s>>>(d, th, count_.get());
      cuda_check_launch("corelated shared_kernel<<<>>>");
      break;
    case Variant::Launch1d:
      pair_1d_kernel<false>
          <<<grid_1d(pairs, block), to_dim3(block), 0, s>>>(d, pairs, th, count_.get());
      cuda_check_launch("corelated pair_1d_kernel<<<>>>");
      break;
    case Variant::Launch2d:
      pair_2d_kernel<<<grid_2d(R, R, block), to_dim3(block), 0, s>>>(d, th, count_.get());
      cuda_check_launch("corelated pair_2d_kernel<<<>>>");
      break;
    case Variant::Fast:
      if (bitsets) {
        const unsigned tile_rows = static_cast<unsigned>(block.x + block.y);
        // Words per chunk: as many as fit the shared budget, at most 64.
        const unsigned fit = static_cast<unsigned>(kBitsetSharedBytes / (4 * tile_rows));
        const unsigned chunk = std::max(1u, std::min(64u, fit - 1));
        const size_t bytes = static_cast<size_t>(tile_rows) * (chunk + 1) * sizeof(uint32_t);
        bitset_kernel<<<grid_2d(R, R, block), to_dim3(block), bytes, s>>>(bits_.get(), R, words_,
                                                                          chunk, th, count_.get());
        cuda_check_launch("corelated bitset_kernel<<<>>>");
        break;
      }
      pair_1d_kernel<true>
          <<<grid_1d(pairs, block), to_dim3(block), 0, s>>>(d, pairs, th, count_.get());
      cuda_check_launch("corelated pair_1d_kernel<merge><<<>>>");
      break;
    default:
      break;
  }
}

uint64_t CorelatedGpu::result(cudaStream_t s) {
  unsigned long long c = 0;
  CV_CUDA(cudaMemcpyAsync(&c, count_.get(), sizeof c, cudaMemcpyDeviceToHost, s));
  CV_CUDA(cudaStreamSynchronize(s));
  return c;
}

}  // namespace cv::corelated
