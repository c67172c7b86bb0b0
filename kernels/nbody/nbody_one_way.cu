// The one-way builds of the n-body fast variant (the plan of rounds one and
// two, selectable by name): each thread owns K targets and sweeps every body
// once for them.
#include "common/block_sum.cuh"
#include "common/launch.h"
#include "nbody/fast_build.h"
#include "nbody/nbody_math.h"

namespace cv::nbody {
namespace {

// Ours. Each thread owns K targets (first + q * blockDim, coalesced), so one
// broadcast shared-memory load feeds K interactions; the next tile is fetched
// into a register while the current one is swept; the tile loop is unrolled by
// Unroll. blockIdx.y is a j-slice: the block sums the tiles
// [tiles * y / slices, tiles * (y + 1) / slices) and writes a partial that the
// finish kernel adds up in slice order (deterministic).
template <int K, int MaxThreads, int Unroll>
__global__ void __launch_bounds__(MaxThreads)
    forces_fast(const float4* __restrict__ bodies, float4* __restrict__ acc, unsigned n,
                unsigned tiles, float eps2) {
  extern __shared__ float4 tile[];
  const unsigned t = flat_thread(), nt = block_threads();
  const unsigned first = blockIdx.x * (K * nt) + t;
  float3 x[K], a[K];
#pragma unroll
  for (int q = 0; q < K; ++q) {
    x[q] = xyz(bodies[first + q * nt]);  // padded: < round_up(n, K * nt) <= n + kPad
    a[q] = make_float3(0.f, 0.f, 0.f);
  }
  const unsigned t0 =
      static_cast<unsigned>(static_cast<unsigned long long>(tiles) * blockIdx.y / gridDim.y);
  const unsigned t1 =
      static_cast<unsigned>(static_cast<unsigned long long>(tiles) * (blockIdx.y + 1) / gridDim.y);
  float4 next = bodies[static_cast<size_t>(t0) * nt + t];
  for (unsigned k = t0; k < t1; ++k) {
    __syncthreads();  // everyone is done with the previous tile
    tile[t] = next;
    __syncthreads();
    if (k + 1 < t1) next = bodies[static_cast<size_t>(k + 1) * nt + t];
    for (unsigned j = 0; j < nt; j += Unroll) {
#pragma unroll
      for (int u = 0; u < Unroll; ++u) {
        const float4 b = tile[j + u];
#pragma unroll
        for (int q = 0; q < K; ++q) accumulate(a[q], x[q], b, eps2);
      }
    }
  }
  float4* out = acc + static_cast<size_t>(blockIdx.y) * n;
#pragma unroll
  for (int q = 0; q < K; ++q) {
    const unsigned i = first + q * nt;
    if (i < n) out[i] = make_float4(a[q].x, a[q].y, a[q].z, 0.f);
  }
}

template <int K, int MaxThreads, int Unroll>
void launch_fast(dim3 grid, dim3 block, size_t shared, cudaStream_t s, const float4* bodies,
                 float4* acc, unsigned n, unsigned tiles, float eps2) {
  forces_fast<K, MaxThreads, Unroll><<<grid, block, shared, s>>>(bodies, acc, n, tiles, eps2);
}

template <int K, int MaxThreads, int Unroll>
FastBuild fast_build_of(const char* name) {
  static_assert(static_cast<unsigned>(K * MaxThreads) <= kBodyPad,
                "padding must cover the targets of the widest block");
  return {name,
          K,
          MaxThreads,
          reinterpret_cast<const void*>(&forces_fast<K, MaxThreads, Unroll>),
          &launch_fast<K, MaxThreads, Unroll>,
          nullptr};
}

}  // namespace

// K targets a thread, the largest block it launches with (its register
// budget: 65536 / MaxThreads, at most 255) and the unroll of the tile loop;
// measured against each other in docs/performance.md.
std::vector<FastBuild> one_way_builds() {
  return {
      fast_build_of<8, 512, 4>("k8u4"),
      fast_build_of<4, 1024, 4>("k4u4"),
      fast_build_of<16, 256, 2>("k16u2"),
      fast_build_of<16, 256, 4>("k16u4"),
      fast_build_of<12, 256, 4>("k12u4"),
      fast_build_of<8, 256, 8>("k8u8"),
      // More resident warps, fewer targets (ncu on k8u4: 82% of issue slots
      // used with ~3 warps a scheduler, the rest lost to dispatch stalls): 64
      // registers (32 warps an SM), and a cap of 85 through the 768-thread
      // bound (3 blocks of 256: 24 warps).
      fast_build_of<4, 1024, 8>("k4u8"),
      fast_build_of<6, 768, 4>("k6u4"),
  };
}

}  // namespace cv::nbody
