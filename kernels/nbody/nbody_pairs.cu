// The pairs kernel of the fast variant: each pair of bodies evaluated once and
// applied to both (Newton's third law), 17 instructions for two interactions
// where the one-way kernels spend 13 on one. Work list: nbody_pairs_plan.h.
//
// In a warp, lane l owns K bodies of the block's set and, at step r of a
// 32-body chunk, meets chunk body (l + r) mod 32. The reaction that chunk body
// collects travels with it: after each step every lane hands its running sum
// to the lane that meets that body next (lane l - 1). After 32 steps lane l
// holds the whole warp's reaction on chunk body l. The warps' sums meet in
// shared memory, in warp order, and reach global memory as 64-bit fixed-point
// atomics: integer sums do not depend on the order the blocks finish in, so
// results are reproducible run to run.
#include "common/block_sum.cuh"
#include "common/launch.h"
#include "nbody/fast_build.h"
#include "nbody/nbody_math.h"

namespace cv::nbody {
namespace {

constexpr unsigned kFullWarp = 0xffffffffu;

__device__ __forceinline__ unsigned long long to_fixed(float v, float scale) {
  return static_cast<unsigned long long>(__float2ll_rn(v * scale));
}

__device__ __forceinline__ void add_fixed(unsigned long long* acc, size_t stride, size_t i,
                                          float x, float y, float z, float scale) {
  atomicAdd(acc + i, to_fixed(x, scale));
  atomicAdd(acc + stride + i, to_fixed(y, scale));
  atomicAdd(acc + 2 * stride + i, to_fixed(z, scale));
}

// A lane's K bodies of the block's set: positions, masses, summed pulls.
template <int K>
struct Targets {
  float3 x[K], a[K];
  float m[K];
};

template <int K>
__device__ __forceinline__ void load_targets(Targets<K>& g, const float4* __restrict__ bodies,
                                             unsigned first) {
#pragma unroll
  for (int q = 0; q < K; ++q) {
    const float4 b = bodies[first + 32u * q];
    g.x[q] = make_float3(b.x, b.y, b.z);
    g.m[q] = b.w;
    g.a[q] = make_float3(0.f, 0.f, 0.f);
  }
}

// Tile k into shared memory, each 32-body chunk stored twice in a row of 64
// so that lane + r never wraps (one load with an immediate offset a step).
__device__ __forceinline__ void stage_tile(float4* tile, const float4* __restrict__ bodies,
                                           unsigned k, unsigned tile_n, unsigned t) {
  if (t < tile_n) {  // nt >= tile_n (PairsShape: chunks <= warps)
    const float4 b = bodies[static_cast<size_t>(k) * tile_n + t];
    float4* row = tile + (t >> 5) * 64u + (t & 31u);
    row[0] = b;
    row[32] = b;
  }
}

// A tile of the block's own set: every tile body pulls each target, one way.
template <int K, int Unroll>
__device__ __forceinline__ void sweep_one_way(Targets<K>& g, const float4* tile, unsigned chunks,
                                              float eps2) {
  for (unsigned c = 0; c < chunks; ++c) {
    const float4* row = tile + c * 64u;
#pragma unroll Unroll
    for (int r = 0; r < 32; ++r) {
      const float4 b = row[r];
#pragma unroll
      for (int q = 0; q < K; ++q) accumulate(g.a[q], g.x[q], b, eps2);
    }
  }
}

// A tile after the set, both ways: lane l meets chunk body (l + r) mod 32 at
// step r and passes that body's reaction on to lane l - 1, which meets it
// next; after 32 steps lane l holds the warp's reaction on chunk body l, stored
// at `row` (the warp's) of the x, y, z partial planes (`plane` floats apart).
template <int K, int Unroll>
__device__ __forceinline__ void sweep_two_way(Targets<K>& g, const float4* tile, unsigned chunks,
                                              unsigned lane, float* part, unsigned row_start,
                                              unsigned plane, float eps2) {
  const unsigned next_lane = (lane + 1u) & 31u;
  for (unsigned c = 0; c < chunks; ++c) {
    const float4* row = tile + c * 64u + lane;
    float3 lost = make_float3(0.f, 0.f, 0.f);
#pragma unroll Unroll
    for (int r = 0; r < 32; ++r) {
      const float4 b = row[r];
#pragma unroll
      for (int q = 0; q < K; ++q) accumulate_pair(g.a[q], lost, g.x[q], g.m[q], b, eps2);
      lost.x = __shfl_sync(kFullWarp, lost.x, next_lane);
      lost.y = __shfl_sync(kFullWarp, lost.y, next_lane);
      lost.z = __shfl_sync(kFullWarp, lost.z, next_lane);
    }
    const unsigned e = row_start + c * 32u + lane;
    part[e] = lost.x;
    part[plane + e] = lost.y;
    part[2u * plane + e] = lost.z;
  }
}

// Tile body t's reaction: the warps' partials summed in warp order, subtracted
// from its fixed-point sums.
__device__ __forceinline__ void add_reaction(unsigned long long* acc, size_t stride,
                                             const float* part, unsigned plane, unsigned tile_n,
                                             unsigned k, unsigned t, float scale) {
  if (t >= tile_n) return;
  float sx = 0.f, sy = 0.f, sz = 0.f;
  for (unsigned e = t; e < plane; e += tile_n) {
    sx += part[e];
    sy += part[plane + e];
    sz += part[2u * plane + e];
  }
  add_fixed(acc, stride, static_cast<size_t>(k) * tile_n + t, -sx, -sy, -sz, scale);
}

// Shared memory: the tile (chunks x 64 bodies), then the warps' reaction
// partials, x, y and z planes of warps * tile floats.
template <int K, int MaxThreads, int Unroll>
__global__ void __launch_bounds__(MaxThreads)
    forces_pairs(const float4* __restrict__ bodies, const uint4* __restrict__ items,
                 unsigned long long* __restrict__ acc, size_t stride, unsigned chunks, float eps2,
                 float scale) {
  extern __shared__ float4 smem[];
  const unsigned t = flat_thread(), nt = block_threads(), lane = t & 31u, warp = t >> 5;
  const unsigned tile_n = 32u * chunks, plane = (nt >> 5) * tile_n;
  float4* tile = smem;
  float* part = reinterpret_cast<float*>(smem + 64u * chunks);
  const uint4 item = items[blockIdx.x];
  const unsigned first = item.x + warp * 32u * K + lane;
  Targets<K> g;
  load_targets(g, bodies, first);
  for (unsigned k = item.y; k < item.z; ++k) {
    __syncthreads();  // everyone is done with the previous tile and partials
    stage_tile(tile, bodies, k, tile_n, t);
    __syncthreads();
    if (k < item.w) {
      sweep_one_way<K, Unroll>(g, tile, chunks, eps2);
      continue;
    }
    sweep_two_way<K, Unroll>(g, tile, chunks, lane, part, warp * tile_n, plane, eps2);
    __syncthreads();
    add_reaction(acc, stride, part, plane, tile_n, k, t, scale);
  }
#pragma unroll
  for (int q = 0; q < K; ++q)
    add_fixed(acc, stride, first + 32u * q, g.a[q].x, g.a[q].y, g.a[q].z, scale);
}

template <int K, int MaxThreads, int Unroll>
void launch_pairs(dim3 block, cudaStream_t s, const PairsArgs& a) {
  forces_pairs<K, MaxThreads, Unroll><<<a.item_count, block, a.shared, s>>>(
      a.bodies, a.items, a.acc, a.stride, a.chunks, a.eps2, a.scale);
}

template <int K, int MaxThreads, int Unroll>
FastBuild pairs_build_of(const char* name) {
  static_assert(K == 4 || K == 8, "pairs_dynamic_shared knows the shared memory of K 4 and 8");
  static_assert(static_cast<unsigned>(K * MaxThreads) <= kBodyPad,
                "padding must cover the set of the widest block");
  return {name,
          K,
          MaxThreads,
          reinterpret_cast<const void*>(&forces_pairs<K, MaxThreads, Unroll>),
          nullptr,
          &launch_pairs<K, MaxThreads, Unroll>};
}

}  // namespace

std::vector<FastBuild> pairs_builds() {
  // K = 8 keeps 16 warps an SM at 128 registers (blocks up to 512); K = 4
  // fits the 64 registers of a 1024-thread block. The unroll of the 32 steps
  // of a chunk: 4 by default, 2 and 8 for comparison.
  return {pairs_build_of<8, 512, 4>("pairs8"), pairs_build_of<4, 1024, 4>("pairs4"),
          pairs_build_of<8, 512, 2>("pairs8u2"), pairs_build_of<8, 512, 8>("pairs8u8"),
          pairs_build_of<8, 768, 4>("pairs8r85")};
}

}  // namespace cv::nbody
