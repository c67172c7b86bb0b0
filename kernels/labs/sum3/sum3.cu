// CUDA kernels of the 3SUM lab: the document's three kernels (with 64-bit sums and
// counts), our fast brute force and the O(n^2) sorted algorithm.
#include <cub/device/device_radix_sort.cuh>

#include <stdexcept>
#include <string>
#include <vector>

#include "common/block_sum.cuh"
#include "common/launch.h"
#include "labs/sum3/sum3.h"
#include "labs/sum3/sum3_math.h"

namespace cv::sum3 {
namespace {

constexpr int P = kPairsPerThread;
constexpr int kTile = 2048;            // v_k values staged in shared memory per step of `fast`
constexpr unsigned kMaxGridY = 65535;  // CUDA's grid y limit on every architecture

// The document's first kernel: thread (x, y) is the pair (i, j); every hit is an atomic.
__global__ void naive_kernel(const int32_t* v, int n, unsigned long long* count) {
  const int i = threadIdx.x + blockDim.x * blockIdx.x;
  const int j = threadIdx.y + blockDim.y * blockIdx.y;
  if (i < n - 2 && j < n - 1 && j > i) {
    for (int k = j + 1; k < n; ++k)
      if (zero_triple(v[i], v[j], v[k])) atomicAdd(count, 1ull);
  }
}

// The document's second: v_i and v_j read once into registers.
__global__ void hoisted_kernel(const int32_t* v, int n, unsigned long long* count) {
  const int i = threadIdx.x + blockDim.x * blockIdx.x;
  const int j = threadIdx.y + blockDim.y * blockIdx.y;
  if (i < n - 2 && j < n - 1 && j > i) {
    const int32_t a = v[i], b = v[j];
    for (int k = j + 1; k < n; ++k)
      if (zero_triple(a, b, v[k])) atomicAdd(count, 1ull);
  }
}

// The document's final kernel: a shared counter per thread (laid out [x][y] as the
// document 000's countArray), thread (0, 0) adds them up, one atomic per block.
__global__ void shared_kernel(const int32_t* v, int n, unsigned long long* count) {
  extern __shared__ unsigned counts[];
  const int i = threadIdx.x + blockDim.x * blockIdx.x;
  const int j = threadIdx.y + blockDim.y * blockIdx.y;
  unsigned& mine = counts[threadIdx.x * blockDim.y + threadIdx.y];
  mine = 0;
  __syncthreads();
  if (i < n && j < n && j > i) {
    const int32_t a = v[i], b = v[j];
    for (int k = j + 1; k < n; ++k)
      if (zero_triple(a, b, v[k])) ++mine;
  }
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    unsigned long long total = 0;
    for (unsigned t = 0; t < blockDim.x * blockDim.y; ++t) total += counts[t];
    if (total > 0) atomicAdd(count, total);
  }
}

// Ours. Block b covers i in tile.x*T + [0, T) and j in tile.y*P + [0, P); only
// tiles holding some i < j are launched (the host builds the list, heaviest
// first). Thread t owns i = tile.x*T + t and the P pairs (i, j0 + p): their
// targets -(v_i + v_j) sit in registers, each v_k (one shared-memory read,
// broadcast to the warp, four at a time) is compared with all P of them.
__global__ void __launch_bounds__(1024)
    fast_kernel(const int32_t* __restrict__ v, int n, const uint2* __restrict__ tiles,
                unsigned long long* count) {
  __shared__ __align__(16) int32_t ks[kTile];
  __shared__ unsigned long long scratch[32];
  const unsigned T = block_threads(), t = flat_thread();
  const uint2 tile = tiles[blockIdx.x];
  const int i = static_cast<int>(tile.x * T + t);
  const int j0 = static_cast<int>(tile.y) * P;
  const int32_t vi = i < n ? v[i] : 0;
  int32_t target[P];
  bool ok[P];
  unsigned cnt[P];
#pragma unroll
  for (int p = 0; p < P; ++p) {
    const int j = j0 + p;
    target[p] = 0;
    ok[p] = i < j && j < n && pair_target(vi, v[j], &target[p]);
    cnt[p] = 0;
  }
  // k in (j0, j0 + P): pair p only counts k > j0 + p.
  const int k_end = min(j0 + P, n);
  for (int k = j0 + 1; k < k_end; ++k) {
    const int32_t x = v[k];
#pragma unroll
    for (int p = 0; p < P; ++p) cnt[p] += (j0 + p < k) & (x == target[p]);
  }
  // k >= j0 + P: every pair counts every k.
  for (int base = j0 + P; base < n; base += kTile) {
    const int len = min(kTile, n - base);
    __syncthreads();  // the previous tile is consumed
    for (int x = static_cast<int>(t); x < len; x += static_cast<int>(T)) ks[x] = v[base + x];
    __syncthreads();
    const int len4 = len & ~3;
    for (int x = 0; x < len4; x += 4) {
      const int4 q = *reinterpret_cast<const int4*>(&ks[x]);
#pragma unroll
      for (int p = 0; p < P; ++p)
        cnt[p] += (q.x == target[p]) + (q.y == target[p]) + (q.z == target[p]) + (q.w == target[p]);
    }
    for (int x = len4; x < len; ++x) {
      const int32_t y = ks[x];
#pragma unroll
      for (int p = 0; p < P; ++p) cnt[p] += y == target[p];
    }
  }
  unsigned long long mine = 0;
#pragma unroll
  for (int p = 0; p < P; ++p) mine += ok[p] ? cnt[p] : 0u;
  mine = block_sum(mine, scratch);
  if (t == 0 && mine > 0) atomicAdd(count, mine);
}

// O(n^2): one i per thread over the sorted values, two pointers inside.
__global__ void sorted_kernel(const int32_t* __restrict__ a, long long n,
                              unsigned long long* count) {
  __shared__ unsigned long long scratch[32];
  const long long i = static_cast<long long>(flat_global_thread());
  unsigned long long c = i < n ? sorted_count_for(a, n, i) : 0ull;
  c = block_sum(c, scratch);
  if (flat_thread() == 0 && c > 0) atomicAdd(count, c);
}

void require_2d(Variant v, const BlockShape& b, size_t n, long long shared_bytes) {
  if (b.z != 1)
    throw std::invalid_argument(std::string(to_string(v)) + " takes a 2D block (x, y); got " +
                                cv::to_string(b) + " with z = " + std::to_string(b.z));
  require_valid(b, shared_bytes);
  const unsigned long long gy = (n + b.y - 1) / b.y;
  if (gy > kMaxGridY)
    throw std::invalid_argument(std::string(to_string(v)) + ": n = " + std::to_string(n) +
                                " with block " + cv::to_string(b) + " needs " + std::to_string(gy) +
                                " blocks in y; the limit is 65535 (use a taller block)");
}

}  // namespace

std::optional<KernelAttributes> kernel_attributes(Variant v) {
  const auto q = [](auto* f, const char* name, DynamicShared d = {}) {
    return query_kernel_attributes(reinterpret_cast<const void*>(f), name, d);
  };
  switch (v) {
    case Variant::Naive:
      return q(&naive_kernel, "sum3 naive_kernel");
    case Variant::Hoisted:
      return q(&hoisted_kernel, "sum3 hoisted_kernel");
    case Variant::Shared:
      return q(&shared_kernel, "sum3 shared_kernel", DynamicShared{4, 0});
    case Variant::Fast:
      return q(&fast_kernel, "sum3 fast_kernel");
    case Variant::Sorted:
      return q(&sorted_kernel, "sum3 sorted_kernel");  // after a CUB radix sort
    default:
      return std::nullopt;
  }
}

Sum3Gpu::Sum3Gpu(const int32_t* host, size_t n) : n_(n), values_(n), count_(1) {
  if (n > (size_t{1} << 30))
    throw std::invalid_argument("sum3: the GPU variants take at most 2^30 values");
  if (n) CV_CUDA(cudaMemcpy(values_.get(), host, n * sizeof(int32_t), cudaMemcpyHostToDevice));
  // A pageable copy may still be in flight when cudaMemcpy returns, and the
  // kernels run on the caller's (non-blocking) stream, which nothing orders
  // after the legacy stream: wait once here.
  CV_CUDA(cudaDeviceSynchronize());
}

void Sum3Gpu::run(Variant v, const BlockShape& block, cudaStream_t s) {
  if (!is_gpu(v))
    throw std::invalid_argument(std::string("sum3: ") + to_string(v) + " is not a GPU variant");
  const int n = static_cast<int>(n_);
  switch (v) {
    case Variant::Naive:
    case Variant::Hoisted:
      require_2d(v, block, n_, 0);
      break;
    case Variant::Shared:
      require_2d(v, block, n_, block.threads() * static_cast<long long>(sizeof(unsigned)));
      break;
    default:
      require_valid(block);
  }
  CV_CUDA(cudaMemsetAsync(count_.get(), 0, sizeof(unsigned long long), s));
  if (n_ < 3) return;
  const dim3 grid = grid_2d(n, n, block);
  switch (v) {
    case Variant::Naive:
      naive_kernel<<<grid, to_dim3(block), 0, s>>>(values_.get(), n, count_.get());
      cuda_check_launch("sum3 naive_kernel<<<>>>");
      break;
    case Variant::Hoisted:
      hoisted_kernel<<<grid, to_dim3(block), 0, s>>>(values_.get(), n, count_.get());
      cuda_check_launch("sum3 hoisted_kernel<<<>>>");
      break;
    case Variant::Shared:
      shared_kernel<<<grid, to_dim3(block), block.threads() * sizeof(unsigned), s>>>(
          values_.get(), n, count_.get());
      cuda_check_launch("sum3 shared_kernel<<<>>>");
      break;
    case Variant::Fast:
      run_fast(block, s);
      break;
    case Variant::Sorted:
      run_sorted(block, s);
      break;
    default:
      break;
  }
}

void Sum3Gpu::run_fast(const BlockShape& block, cudaStream_t s) {
  const long long T = block.threads();
  if (T != tiles_threads_) {
    // Tiles (i tile, j tile) holding a pair i < j with some k > j, j tiles in
    // ascending order so the blocks with the longest k range start first.
    std::vector<uint2> list;
    const long long n = static_cast<long long>(n_);
    for (long long jt = 0; jt * P < n - 1; ++jt) {
      const long long j_max = std::min<long long>(jt * P + P - 1, n - 2);
      if (j_max < 1) continue;
      const long long i_tiles = (j_max - 1) / T + 1;
      // 2^27 tiles is n of about 740,000 at 1024 threads: days of brute force.
      if (list.size() + static_cast<size_t>(i_tiles) > (size_t{1} << 27))
        throw std::invalid_argument("sum3 fast: n = " + std::to_string(n_) +
                                    " is too large for the brute force (use sorted)");
      for (long long it = 0; it < i_tiles; ++it)
        list.push_back(make_uint2(static_cast<unsigned>(it), static_cast<unsigned>(jt)));
    }
    tiles_ = DeviceBuffer<uint2>(list.size());
    if (!list.empty())
      CV_CUDA(cudaMemcpyAsync(tiles_.get(), list.data(), list.size() * sizeof(uint2),
                              cudaMemcpyHostToDevice, s));  // ordered before the kernel on s
    tiles_threads_ = T;
    tiles_count_ = list.size();
  }
  if (tiles_count_ == 0) return;
  fast_kernel<<<static_cast<unsigned>(tiles_count_), to_dim3(block), 0, s>>>(
      values_.get(), static_cast<int>(n_), tiles_.get(), count_.get());
  cuda_check_launch("sum3 fast_kernel<<<>>>");
}

void Sum3Gpu::run_sorted(const BlockShape& block, cudaStream_t s) {
  const int n = static_cast<int>(n_);
  if (sorted_.size() != n_) {
    sorted_ = DeviceBuffer<int32_t>(n_);
    size_t bytes = 0;
    CV_CUDA(cub::DeviceRadixSort::SortKeys(nullptr, bytes, values_.get(), sorted_.get(), n));
    sort_temp_ = DeviceBuffer<unsigned char>(bytes);
    sort_temp_bytes_ = bytes;
  }
  // The sort is part of the algorithm, so it is inside the timed work.
  size_t bytes = sort_temp_bytes_;
  CV_CUDA(cub::DeviceRadixSort::SortKeys(sort_temp_.get(), bytes, values_.get(), sorted_.get(), n,
                                         0, 32, s));
  sorted_kernel<<<grid_1d(n_, block), to_dim3(block), 0, s>>>(
      sorted_.get(), static_cast<long long>(n_), count_.get());
  cuda_check_launch("sum3 sorted_kernel<<<>>>");
}

uint64_t Sum3Gpu::result(cudaStream_t s) {
  unsigned long long c = 0;
  CV_CUDA(cudaMemcpyAsync(&c, count_.get(), sizeof c, cudaMemcpyDeviceToHost, s));
  CV_CUDA(cudaStreamSynchronize(s));
  return c;
}

}  // namespace cv::sum3
