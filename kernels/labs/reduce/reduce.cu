// CUDA variants of the counting and summing labs (document 001). Every kernel takes
// the caller's block, flattened to x*y*z threads (common/block_sum.cuh).
#include <cub/device/device_reduce.cuh>
#include <thrust/count.h>
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
#include "labs/reduce/reduce.h"
#include "labs/reduce/reduce_math.h"

namespace cv::reduce {
namespace {

// Grid-stride kernels whose grid would otherwise exceed CUDA's limit are capped here.
constexpr unsigned long long kMaxGrid = (1ull << 31) - 1;

__device__ __forceinline__ unsigned long long grid_stride() {
  return static_cast<unsigned long long>(gridDim.x) * block_threads();
}

// The document's 08b: a plain read-modify-write of one global counter by every
// thread. Updates are lost when threads interleave: wrong on purpose.
template <class M>
__global__ void racy_kernel(const int32_t* __restrict__ in, size_t n, unsigned long long* acc) {
  const unsigned long long i = flat_global_thread();
  if (i >= n) return;
  const typename M::Acc v = M::map(in[i]);
  if (v) *acc = *acc + static_cast<unsigned long long>(static_cast<int64_t>(v));
}

// The document's 08c: one atomicAdd per contributing element.
template <class M>
__global__ void atomic_kernel(const int32_t* __restrict__ in, size_t n, unsigned long long* acc) {
  const unsigned long long i = flat_global_thread();
  if (i >= n) return;
  const typename M::Acc v = M::map(in[i]);
  if (v) atomicAdd(acc, static_cast<unsigned long long>(static_cast<int64_t>(v)));
}

// The document's 08e: map into a scratch array, halve it pass by pass
// (data[i] += data[i + p]), then one block finishes in shared memory.
template <class M>
__global__ void map_kernel(const int32_t* __restrict__ in, size_t n, typename M::Acc* out) {
  const unsigned long long i = flat_global_thread();
  if (i < n) out[i] = M::map(in[i]);
}
template <class T>
__global__ void halve_kernel(size_t p, size_t q, T* data) {
  const unsigned long long i = flat_global_thread();
  if (i + p < q) data[i] += data[i + p];
}
template <class T>
__global__ void final_kernel(const T* data, unsigned long long* acc) {
  extern __shared__ unsigned char raw[];
  T* sh = reinterpret_cast<T*>(raw);
  sh[flat_thread()] = data[flat_thread()];
  shared_tree_sum(sh);
  if (flat_thread() == 0) *acc = static_cast<unsigned long long>(static_cast<int64_t>(sh[0]));
}

// Shared-memory tree per block (any thread count), one atomic per block.
template <class M>
__global__ void shared_tree_kernel(const int32_t* __restrict__ in, size_t n,
                                   unsigned long long* acc) {
  using Acc = typename M::Acc;
  extern __shared__ unsigned char raw[];
  Acc* sh = reinterpret_cast<Acc*>(raw);
  Acc v = 0;
  for (unsigned long long i = flat_global_thread(); i < n; i += grid_stride()) v += M::map(in[i]);
  sh[flat_thread()] = v;
  shared_tree_sum(sh);
  if (flat_thread() == 0 && sh[0])
    atomicAdd(acc, static_cast<unsigned long long>(static_cast<int64_t>(sh[0])));
}

// Warp shuffles, one atomic per warp, no shared memory.
template <class M>
__global__ void warp_kernel(const int32_t* __restrict__ in, size_t n, unsigned long long* acc) {
  using Acc = typename M::Acc;
  Acc v = 0;
  for (unsigned long long i = flat_global_thread(); i < n; i += grid_stride()) v += M::map(in[i]);
  v = warp_sum(v);
  if ((flat_thread() & 31u) == 0 && v)
    atomicAdd(acc, static_cast<unsigned long long>(static_cast<int64_t>(v)));
}

// Ours: 16-byte loads (four in flight per thread and iteration), grid-stride on
// a grid of the device's resident blocks, warp-shuffle block sum, one 64-bit
// atomic per block. Elements before the first 16-byte boundary and after the
// last whole int4 are taken one by one.
template <class M>
__global__ void __launch_bounds__(1024)
    fast_kernel(const int32_t* __restrict__ in, size_t n, unsigned long long* acc) {
  using Acc = typename M::Acc;
  __shared__ Acc scratch[32];
  const unsigned long long t = flat_global_thread(), stride = grid_stride();
  const size_t head = std::min<size_t>(n, ((16 - (reinterpret_cast<uintptr_t>(in) & 15)) & 15) / 4);
  const int4* v4 = reinterpret_cast<const int4*>(in + head);
  const size_t n4 = (n - head) / 4;
  Acc v = 0;
  const size_t tail = head + 4 * n4;
  for (unsigned long long i = t; i < head; i += stride) v += M::map(in[i]);  // a small grid may have
  for (unsigned long long i = tail + t; i < n; i += stride) v += M::map(in[i]);  // fewer than 3 threads
  auto add4 = [&](const int4& q) { v += M::map(q.x) + M::map(q.y) + M::map(q.z) + M::map(q.w); };
  unsigned long long i = t;
  for (; i + 3 * stride < n4; i += 4 * stride) {
    const int4 a = __ldg(v4 + i), b = __ldg(v4 + i + stride), c = __ldg(v4 + i + 2 * stride),
               d = __ldg(v4 + i + 3 * stride);
    add4(a);
    add4(b);
    add4(c);
    add4(d);
  }
  for (; i < n4; i += stride) add4(__ldg(v4 + i));
  v = block_sum(v, scratch);
  if (flat_thread() == 0 && v)
    atomicAdd(acc, static_cast<unsigned long long>(static_cast<int64_t>(v)));
}

template <class M>
unsigned resident_grid(const void* kernel, const BlockShape& block, size_t n_threads_wanted) {
  int per_sm = 0;
  CV_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel,
                                                        static_cast<int>(block.threads()), 0));
  const unsigned long long resident =
      static_cast<unsigned long long>(std::max(per_sm, 1)) * device_info().sm_count;
  const unsigned long long needed =
      std::max<unsigned long long>(1, ceil_div(n_threads_wanted, block.threads()));
  return static_cast<unsigned>(std::min(resident, needed));
}

template <class M>
void launch_fast(const int32_t* d_in, size_t n, unsigned long long* acc, const BlockShape& block,
                 cudaStream_t s) {
  require_valid(block);
  if (n == 0) return;
  const unsigned grid =
      resident_grid<M>(reinterpret_cast<const void*>(fast_kernel<M>), block, (n + 3) / 4);
  fast_kernel<M><<<grid, to_dim3(block), 0, s>>>(d_in, n, acc);
  cuda_check_launch("reduce fast_kernel<<<>>>");
}

template <class M>
void run_variant(Variant v, const int32_t* d_in, size_t n, const BlockShape& block,
                 unsigned long long* acc, DeviceBuffer<unsigned char>& scratch, cudaStream_t s) {
  using Acc = typename M::Acc;
  const dim3 b = to_dim3(block);
  const unsigned long long threads = block.threads();
  const unsigned grid =
      static_cast<unsigned>(std::min<unsigned long long>(kMaxGrid, ceil_div(n, threads)));
  switch (v) {
    case Variant::Racy:
    case Variant::Atomic:
    case Variant::Multipass:
      if (ceil_div(n, threads) > kMaxGrid)
        throw std::invalid_argument(std::string(to_string(v)) + ": " + std::to_string(n) +
                                    " elements need more than 2^31-1 blocks of " +
                                    std::to_string(threads) +
                                    " threads (one element per thread); use a bigger block");
      break;
    default:
      break;
  }
  switch (v) {
    case Variant::Racy:
      racy_kernel<M><<<grid, b, 0, s>>>(d_in, n, acc);
      return cuda_check_launch("reduce racy_kernel<<<>>>");
    case Variant::Atomic:
      atomic_kernel<M><<<grid, b, 0, s>>>(d_in, n, acc);
      return cuda_check_launch("reduce atomic_kernel<<<>>>");
    case Variant::Multipass: {
      if (scratch.size() < n * sizeof(Acc)) scratch = DeviceBuffer<unsigned char>(n * sizeof(Acc));
      Acc* data = reinterpret_cast<Acc*>(scratch.get());
      map_kernel<M><<<grid, b, 0, s>>>(d_in, n, data);
      cuda_check_launch("reduce map_kernel<<<>>>");
      size_t q = n;
      while (q > threads) {
        const size_t p = (q + 1) / 2;
        halve_kernel<Acc><<<ceil_div(p, threads), b, 0, s>>>(p, q, data);
        cuda_check_launch("reduce halve_kernel<<<>>>");
        q = p;
      }
      // q <= the caller's thread count: one block of q threads finishes.
      final_kernel<Acc><<<1, dim3(static_cast<unsigned>(q)), q * sizeof(Acc), s>>>(data, acc);
      return cuda_check_launch("reduce final_kernel<<<>>>");
    }
    case Variant::SharedTree:
      shared_tree_kernel<M><<<grid, b, threads * sizeof(Acc), s>>>(d_in, n, acc);
      return cuda_check_launch("reduce shared_tree_kernel<<<>>>");
    case Variant::WarpShuffle:
      warp_kernel<M><<<grid, b, 0, s>>>(d_in, n, acc);
      return cuda_check_launch("reduce warp_kernel<<<>>>");
    case Variant::Fast:
      return launch_fast<M>(d_in, n, acc, block, s);
    default:
      throw std::logic_error("reduce: not a kernel variant");
  }
}

struct IsMult3 {
  __host__ __device__ unsigned long long operator()(int32_t v) const {
    return is_multiple_of_3(v) ? 1ull : 0ull;
  }
};
struct WidenSum {
  __host__ __device__ long long operator()(int32_t v) const { return v; }
};

}  // namespace

ReduceGpu::ReduceGpu(Op op, size_t max_n) : op_(op), max_n_(max_n), acc_(1) {
  if (max_n > kMaxElements) throw std::invalid_argument("reduce: at most 2^32-1 elements");
  // CUB's temporary storage for the biggest run, queried once.
  if (op == Op::Sum)
    CV_CUDA(cub::DeviceReduce::Sum(nullptr, cub_temp_bytes_, static_cast<const int32_t*>(nullptr),
                                   static_cast<long long*>(nullptr), static_cast<int64_t>(max_n)));
  else
    CV_CUDA(cub::DeviceReduce::TransformReduce(
        nullptr, cub_temp_bytes_, static_cast<const int32_t*>(nullptr),
        static_cast<unsigned long long*>(nullptr), static_cast<int64_t>(max_n),
        ::cuda::std::plus<>{}, IsMult3{}, 0ull));
  cub_temp_ = DeviceBuffer<unsigned char>(std::max<size_t>(cub_temp_bytes_, 1));
}

void ReduceGpu::run_cub(const int32_t* d_in, size_t n, cudaStream_t s) {
  size_t bytes = cub_temp_bytes_;
  if (op_ == Op::Sum)
    CV_CUDA(cub::DeviceReduce::Sum(cub_temp_.get(), bytes, d_in,
                                   reinterpret_cast<long long*>(acc_.get()),
                                   static_cast<int64_t>(n), s));
  else
    CV_CUDA(cub::DeviceReduce::TransformReduce(cub_temp_.get(), bytes, d_in, acc_.get(),
                                               static_cast<int64_t>(n), ::cuda::std::plus<>{},
                                               IsMult3{}, 0ull, s));
}

int64_t ReduceGpu::run_thrust(const int32_t* d_in, size_t n, cudaStream_t s) {
  if (op_ == Op::Sum)
    return thrust::transform_reduce(thrust::cuda::par.on(s), d_in, d_in + n, WidenSum{}, 0ll,
                                    thrust::plus<long long>());
  return thrust::count_if(thrust::cuda::par.on(s), d_in, d_in + n, IsMult3{});
}

void ReduceGpu::run(Variant v, const int32_t* d_in, size_t n, const BlockShape& block,
                    cudaStream_t s) {
  if (!is_gpu(v))
    throw std::invalid_argument(std::string("reduce: ") + to_string(v) + " is not a GPU variant");
  if (n > max_n_)
    throw std::invalid_argument("reduce: " + std::to_string(n) + " elements exceed the " +
                                std::to_string(max_n_) + " this runner was built for");
  const size_t acc_size = op_ == Op::Sum ? sizeof(int64_t) : sizeof(uint32_t);
  const long long shared =
      v == Variant::SharedTree  ? block.threads() * static_cast<long long>(acc_size)
      : v == Variant::Multipass ? block.threads() * static_cast<long long>(acc_size)
                                : 0;
  require_valid(block, shared);
  host_result_ = false;
  if (v == Variant::Thrust) {
    host_value_ = n ? run_thrust(d_in, n, s) : 0;
    host_result_ = true;
    return;
  }
  CV_CUDA(cudaMemsetAsync(acc_.get(), 0, sizeof(unsigned long long), s));
  if (v == Variant::Cub) return run_cub(d_in, n, s);
  if (n == 0) return;
  if (op_ == Op::Sum)
    run_variant<Sum>(v, d_in, n, block, acc_.get(), scratch_, s);
  else
    run_variant<Count3>(v, d_in, n, block, acc_.get(), scratch_, s);
}

int64_t ReduceGpu::result(cudaStream_t s) {
  if (host_result_) return host_value_;
  unsigned long long v = 0;
  CV_CUDA(cudaMemcpyAsync(&v, acc_.get(), sizeof v, cudaMemcpyDeviceToHost, s));
  CV_CUDA(cudaStreamSynchronize(s));
  return static_cast<int64_t>(v);
}

void sum_into(const int32_t* d_in, size_t n, unsigned long long* d_acc, const BlockShape& block,
              cudaStream_t s) {
  launch_fast<Sum>(d_in, n, d_acc, block, s);
}

namespace {
__global__ void data_kernel(int32_t* out, size_t n, uint64_t key) {
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n; i += size_t{gridDim.x} * blockDim.x)
    out[i] = data_value(key, i);
}
}  // namespace

void make_data_on_device(int32_t* d_out, size_t n, uint64_t seed, cudaStream_t s) {
  if (n == 0) return;
  constexpr unsigned kThreads = 256;
  // Grid-stride: enough blocks to fill the device, never more than the data needs.
  const size_t blocks = std::min<size_t>((n + kThreads - 1) / kThreads, size_t{65535} * 8);
  data_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, s>>>(d_out, n, data_key(seed));
  CV_CUDA(cudaGetLastError());
}

}  // namespace cv::reduce
