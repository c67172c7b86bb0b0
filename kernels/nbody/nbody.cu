// CUDA kernels of the n-body scene: three force kernels with the same
// per-interaction math (nbody_math.h), a gather of the VBO positions into a
// padded snapshot, a finish kernel that sums j-slices and integrates, and the
// energy on demand (double sums).
#include <algorithm>
#include <stdexcept>
#include <string>

#include "common/launch.h"
#include "insight/launch_ids.cuh"
#include "nbody/nbody.h"

namespace cv::nbody {
namespace {

// Two builds of the fast kernel: blocks up to kFastSmallBlock threads keep
// kFastBodiesPerThread (8) targets a thread in ~127 registers; larger blocks
// must fit 64 registers to launch and keep 4.
constexpr int kFastSmallBlock = 512;
constexpr int kMaxThreads = 1024;
constexpr int kFastBodiesLarge = 4;
// The snapshot holds count + kPad bodies, the tail zero-mass at the origin, so
// tile loads and the fast kernel's extra targets past N never need a bounds
// check: a zero-mass body adds exactly 0 (its distance is at least eps).
constexpr unsigned kPad = 4096;
static_assert(kPad >= kFastBodiesPerThread * kFastSmallBlock &&
                  kPad >= kFastBodiesLarge * kMaxThreads,
              "padding must cover the targets of the widest fast block");
// The fast kernel's inner loop is unrolled by this many bodies (block sizes
// are multiples of 32, so there is no remainder). Measured on the H100: 4 beats
// 2, 8 and 16 (4 bodies x 8 targets x 13 instructions, ~7 KB of SASS, stays in
// the SM's L0 instruction cache); a whole 256-body tile unrolled would not.
// The SASS of that loop: 32 x (3 FADD, 6 FFMA, 1 MUFU.RSQ, 3 FMUL) + 4 LDS.128
// + 4 loop instructions = 13.25 instructions an interaction.
constexpr int kFastUnroll = 4;

__device__ __forceinline__ unsigned linear_tid() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
__device__ __forceinline__ unsigned block_threads() {
  return blockDim.x * blockDim.y * blockDim.z;
}
__device__ __forceinline__ float3 xyz(const float4& b) {
  return make_float3(b.x, b.y, b.z);
}

// Snapshot of the VBO positions with the masses, zero-mass padding after N.
__global__ void gather_kernel(const float4* __restrict__ vbo, const float4* __restrict__ vel,
                              float4* __restrict__ bodies, unsigned n, unsigned total) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total) return;
  if (i < n) {
    const float4 q = vbo[i];
    bodies[i] = make_float4(q.x, q.y, q.z, vel[i].w);
  } else {
    bodies[i] = make_float4(0.f, 0.f, 0.f, 0.f);
  }
}

// The notes' naive kernel: one body per thread, every other body read from
// global memory (through the caches) one at a time.
__global__ void forces_seed(const float4* __restrict__ bodies, float4* __restrict__ acc, unsigned n,
                            float eps2) {
  const unsigned i = blockIdx.x * block_threads() + linear_tid();
  if (i >= n) return;
  const float3 xi = xyz(bodies[i]);
  float3 a = make_float3(0.f, 0.f, 0.f);
  for (unsigned j = 0; j < n; ++j) accumulate(a, xi, bodies[j], eps2);
  acc[i] = make_float4(a.x, a.y, a.z, 0.f);
}

// GPU Gems 3, chapter 31: one body per thread; the block stages a tile of
// blockDim bodies in shared memory and every thread sweeps it.
__global__ void forces_tiled(const float4* __restrict__ bodies, float4* __restrict__ acc,
                             unsigned n, float eps2) {
  extern __shared__ float4 tile[];
  const unsigned t = linear_tid(), nt = block_threads();
  const unsigned i = blockIdx.x * nt + t;
  const float3 xi = xyz(bodies[i]);  // padded: i < round_up(n, nt) <= n + kPad
  float3 a = make_float3(0.f, 0.f, 0.f);
  for (unsigned base = 0; base < n; base += nt) {
    tile[t] = bodies[base + t];
    __syncthreads();
#pragma unroll 8
    for (unsigned k = 0; k < nt; ++k) accumulate(a, xi, tile[k], eps2);
    __syncthreads();
  }
  if (i < n) acc[i] = make_float4(a.x, a.y, a.z, 0.f);
}

// Ours. Each thread owns K targets (first + q * blockDim, coalesced), so one
// broadcast shared-memory load feeds K interactions; the next tile is fetched
// into a register while the current one is swept; the tile loop is unrolled by
// kFastUnroll. blockIdx.y is a j-slice: the block sums the tiles
// [tiles * y / slices, tiles * (y + 1) / slices) and writes a partial that the
// finish kernel adds up in slice order (deterministic).
template <int K, int MaxThreads>
__global__ void __launch_bounds__(MaxThreads)
    forces_fast(const float4* __restrict__ bodies, float4* __restrict__ acc, unsigned n,
                unsigned tiles, float eps2) {
  extern __shared__ float4 tile[];
  const unsigned t = linear_tid(), nt = block_threads();
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
    for (unsigned j = 0; j < nt; j += kFastUnroll) {
#pragma unroll
      for (int u = 0; u < kFastUnroll; ++u) {
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

// Sums the slices of body i in slice order; then either stores G a (for
// accelerations() and the energy) or kicks and drifts it and writes the VBO
// (x, y, z, |v|) and the velocity (vx, vy, vz, m).
template <bool Integrate>
__global__ void finish_kernel(const float4* __restrict__ bodies, float4* __restrict__ acc,
                              float4* __restrict__ vel, float4* __restrict__ vbo, unsigned n,
                              unsigned slices, float G, float kick, float dt,
                              insight::IdsOut ids = {}) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  insight::write_launch_id(ids, i);
  float3 a = xyz(acc[i]);
  for (unsigned s = 1; s < slices; ++s) {
    const float4 p = acc[static_cast<size_t>(s) * n + i];
    a.x += p.x;
    a.y += p.y;
    a.z += p.z;
  }
  if (!Integrate) {
    acc[i] = make_float4(G * a.x, G * a.y, G * a.z, 0.f);
    return;
  }
  const float4 b = bodies[i], w = vel[i];
  float3 x = xyz(b), v = xyz(w);
  kick_drift(x, v, a, kick, dt);
  vbo[i] = make_float4(x.x, x.y, x.z, speed(v));
  vel[i] = make_float4(v.x, v.y, v.z, w.w);
}

// Per-block (kinetic, potential) in double. Potential: -G/2 sum_i m_i sum_{j!=i}
// m_j / sqrt(r^2 + eps^2); each tile's terms are summed in float (at most 1024
// of them), the tiles in double. Velocities are synchronised with the positions
// by half a kick when `acc` (G a) is given.
__global__ void energy_kernel(const float4* __restrict__ bodies, const float4* __restrict__ vel,
                              const float4* __restrict__ acc, float half_dt, unsigned n, float G,
                              float eps2, double2* __restrict__ partials) {
  extern __shared__ float4 tile[];
  const unsigned t = linear_tid(), nt = block_threads();
  double2* red = reinterpret_cast<double2*>(tile + nt);
  const unsigned i = blockIdx.x * nt + t;
  const float4 bi = bodies[i];
  const float3 xi = xyz(bi);
  double pot = 0;
  for (unsigned base = 0; base < n; base += nt) {
    tile[t] = bodies[base + t];
    __syncthreads();
    float part = 0.f;
    for (unsigned k = 0; k < nt; ++k) {
      const float term = potential_term(xi, tile[k], eps2);
      part += base + k == i ? 0.f : term;
    }
    pot += part;
    __syncthreads();
  }
  double ke = 0, pe = 0;
  if (i < n) {
    float4 w = vel[i];
    if (acc) {
      const float4 g = acc[i];
      w.x += g.x * half_dt;
      w.y += g.y * half_dt;
      w.z += g.z * half_dt;
    }
    const double vx = w.x, vy = w.y, vz = w.z;
    ke = 0.5 * static_cast<double>(bi.w) * (vx * vx + vy * vy + vz * vz);
    pe = -0.5 * static_cast<double>(G) * static_cast<double>(bi.w) * pot;
  }
  red[t] = make_double2(ke, pe);
  __syncthreads();
  // Tree over any block size: fold onto the largest power of two first.
  unsigned p2 = 1;
  while (p2 * 2 <= nt) p2 *= 2;
  if (t >= p2) {
    red[t - p2].x += red[t].x;
    red[t - p2].y += red[t].y;
  }
  __syncthreads();
  for (unsigned s = p2 / 2; s > 0; s /= 2) {
    if (t < s) {
      red[t].x += red[t + s].x;
      red[t].y += red[t + s].y;
    }
    __syncthreads();
  }
  if (t == 0) partials[blockIdx.x] = red[0];
}

}  // namespace

NBodyGpu::NBodyGpu(unsigned count)
    : count_(count), bodies_(static_cast<size_t>(count) + kPad), vel_(count), acc_(count) {}

void NBodyGpu::load(float4* vbo, const Bodies& b, cudaStream_t s) {
  if (b.pos.size() != count_ || b.vel.size() != count_)
    throw std::invalid_argument("nbody load: " + std::to_string(b.pos.size()) +
                                " bodies for a simulation of " + std::to_string(count_));
  if (count_) {
    CV_CUDA(cudaMemcpyAsync(vbo, b.pos.data(), b.pos.size() * sizeof(float4),
                            cudaMemcpyHostToDevice, s));
    CV_CUDA(cudaMemcpyAsync(vel_.get(), b.vel.data(), vel_.bytes(), cudaMemcpyHostToDevice, s));
    CV_CUDA(cudaStreamSynchronize(s));  // the caller's vectors may go away after we return
  }
  synced_ = true;
  last_dt_ = 0;
}

void NBodyGpu::reset(float4* vbo, Initial ic, const Params& p, uint64_t seed, cudaStream_t s) {
  load(vbo, make_bodies(ic, count_, p, seed), s);
}

void NBodyGpu::gather(const float4* vbo, unsigned threads, cudaStream_t s) {
  const unsigned total = count_ + kPad;
  gather_kernel<<<ceil_div(total, threads), threads, 0, s>>>(vbo, vel_.get(), bodies_.get(), count_,
                                                             total);
  cuda_check_launch("nbody gather_kernel<<<>>>");
}

namespace {

size_t fast_shared(const BlockShape& b) {
  return static_cast<size_t>(b.threads()) * sizeof(float4);
}

void require_fast_block(const BlockShape& b) {
  if (b.threads() % 32 != 0)
    throw std::invalid_argument(
        "nbody fast: the block must have a multiple of 32 threads (x*y*z = " +
        std::to_string(b.threads()) + " for " + to_string(b) + ")");
}

}  // namespace

unsigned fast_bodies_per_thread(const BlockShape& block) {
  return block.threads() <= kFastSmallBlock ? kFastBodiesPerThread : kFastBodiesLarge;
}

KernelAttributes kernel_attributes(Variant v, const BlockShape& block) {
  const DynamicShared tile{static_cast<long long>(sizeof(float4)), 0};
  switch (v) {
    case Variant::Seed:
      return query_kernel_attributes(reinterpret_cast<const void*>(&forces_seed),
                                     "nbody forces_seed");
    case Variant::Tiled:
      return query_kernel_attributes(reinterpret_cast<const void*>(&forces_tiled),
                                     "nbody forces_tiled", tile);
    case Variant::Fast:
      break;
  }
  const bool small = block.threads() <= kFastSmallBlock;
  const void* fast_small = reinterpret_cast<const void*>(
      &forces_fast<kFastBodiesPerThread, kFastSmallBlock>);
  const void* fast_large = reinterpret_cast<const void*>(&forces_fast<kFastBodiesLarge, kMaxThreads>);
  KernelAttributes a =
      small ? query_kernel_attributes(fast_small, "nbody forces_fast<8, 512>", tile)
            : query_kernel_attributes(fast_large, "nbody forces_fast<4, 1024>", tile);
  a.note = small ? "the build for blocks of up to 512 threads: 8 bodies a thread"
                 : "the build for blocks over 512 threads: 4 bodies a thread, 64 registers at most";
  return a;
}

unsigned NBodyGpu::fast_slices(const BlockShape& block) const {
  require_valid(block, static_cast<long long>(fast_shared(block)));
  require_fast_block(block);
  const unsigned nt = static_cast<unsigned>(block.threads());
  if (count_ == 0) return 1;
  int per_sm = 0;
  if (nt <= kFastSmallBlock)
    CV_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, forces_fast<kFastBodiesPerThread, kFastSmallBlock>, static_cast<int>(nt),
        fast_shared(block)));
  else
    CV_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, forces_fast<kFastBodiesLarge, kMaxThreads>, static_cast<int>(nt),
        fast_shared(block)));
  const unsigned resident =
      static_cast<unsigned>(std::max(per_sm, 0) * std::max(device_info().sm_count, 0));
  const unsigned i_blocks =
      ceil_div(count_, static_cast<unsigned long long>(fast_bodies_per_thread(block)) * nt);
  const unsigned tiles = ceil_div(count_, nt);
  return choose_slices(i_blocks, tiles, resident);
}

unsigned NBodyGpu::forces(Variant v, const Params& p, const BlockShape& block, cudaStream_t s) {
  const unsigned nt = static_cast<unsigned>(block.threads());
  const float eps2 = p.softening * p.softening;
  const dim3 threads = to_dim3(block);
  switch (v) {
    case Variant::Seed:
      forces_seed<<<ceil_div(count_, nt), threads, 0, s>>>(bodies_.get(), acc_.get(), count_, eps2);
      cuda_check_launch("nbody forces_seed<<<>>>");
      return 1;
    case Variant::Tiled:
      forces_tiled<<<ceil_div(count_, nt), threads, nt * sizeof(float4), s>>>(
          bodies_.get(), acc_.get(), count_, eps2);
      cuda_check_launch("nbody forces_tiled<<<>>>");
      return 1;
    case Variant::Fast: {
      const unsigned slices = fast_slices(block);
      const size_t need = static_cast<size_t>(slices) * count_;
      if (acc_.size() < need) acc_ = DeviceBuffer<float4>(need);  // cudaFree waits for pending work
      const dim3 grid(
          ceil_div(count_, static_cast<unsigned long long>(fast_bodies_per_thread(block)) * nt),
          slices, 1);
      const unsigned tiles = ceil_div(count_, nt);
      if (nt <= kFastSmallBlock)
        forces_fast<kFastBodiesPerThread, kFastSmallBlock>
            <<<grid, threads, fast_shared(block), s>>>(bodies_.get(), acc_.get(), count_, tiles,
                                                       eps2);
      else
        forces_fast<kFastBodiesLarge, kMaxThreads><<<grid, threads, fast_shared(block), s>>>(
            bodies_.get(), acc_.get(), count_, tiles, eps2);
      cuda_check_launch("nbody forces_fast<<<>>>");
      return slices;
    }
  }
  throw std::invalid_argument("nbody: unknown variant");
}

namespace {

void require_block(Variant v, const BlockShape& block) {
  if (v == Variant::Seed) {
    require_valid(block);
  } else {
    require_valid(block, block.threads() * static_cast<long long>(sizeof(float4)));
    if (v == Variant::Fast) require_fast_block(block);
  }
}

}  // namespace

void NBodyGpu::step(float4* vbo, const Params& p, Variant v, const BlockShape& block,
                    cudaStream_t s, const insight::IdsOut& ids) {
  require_block(v, block);
  if (count_ == 0) return;
  const unsigned nt = static_cast<unsigned>(block.threads());
  gather(vbo, nt, s);
  const unsigned slices = forces(v, p, block, s);
  const float kick = p.G * (synced_ ? 0.5f * p.dt : 0.5f * (last_dt_ + p.dt));
  finish_kernel<true><<<ceil_div(count_, nt), nt, 0, s>>>(bodies_.get(), acc_.get(), vel_.get(),
                                                          vbo, count_, slices, p.G, kick, p.dt, ids);
  cuda_check_launch("nbody finish_kernel<<<>>>");
  synced_ = false;
  last_dt_ = p.dt;
}

std::vector<float4> NBodyGpu::accelerations(const float4* vbo, const Params& p, Variant v,
                                            const BlockShape& block, cudaStream_t s) {
  require_block(v, block);
  std::vector<float4> out(count_);
  if (count_ == 0) return out;
  const unsigned nt = static_cast<unsigned>(block.threads());
  gather(vbo, nt, s);
  const unsigned slices = forces(v, p, block, s);
  finish_kernel<false><<<ceil_div(count_, nt), nt, 0, s>>>(bodies_.get(), acc_.get(), vel_.get(),
                                                           nullptr, count_, slices, p.G, 0.f, 0.f);
  cuda_check_launch("nbody finish_kernel<<<>>>");
  CV_CUDA(cudaMemcpyAsync(out.data(), acc_.get(), out.size() * sizeof(float4),
                          cudaMemcpyDeviceToHost, s));
  CV_CUDA(cudaStreamSynchronize(s));
  return out;
}

Energy NBodyGpu::energy(const float4* vbo, const Params& p, const BlockShape& block,
                        cudaStream_t s) {
  const long long shared =
      block.threads() * static_cast<long long>(sizeof(float4) + sizeof(double2));
  require_valid(block, shared);
  Energy e;
  if (count_ == 0) return e;
  const unsigned nt = static_cast<unsigned>(block.threads());
  gather(vbo, nt, s);
  const float4* acc = nullptr;
  if (!synced_) {  // velocities are half a step behind: bring them to the positions' time
    // The fastest force kernel this block shape allows.
    const unsigned slices = forces(nt % 32 == 0 ? Variant::Fast : Variant::Tiled, p, block, s);
    finish_kernel<false><<<ceil_div(count_, nt), nt, 0, s>>>(
        bodies_.get(), acc_.get(), vel_.get(), nullptr, count_, slices, p.G, 0.f, 0.f);
    cuda_check_launch("nbody finish_kernel<<<>>>");
    acc = acc_.get();
  }
  const unsigned blocks = ceil_div(count_, nt);
  DeviceBuffer<double2> partials(blocks);
  energy_kernel<<<blocks, to_dim3(block), static_cast<size_t>(shared), s>>>(
      bodies_.get(), vel_.get(), acc, 0.5f * last_dt_, count_, p.G, p.softening * p.softening,
      partials.get());
  cuda_check_launch("nbody energy_kernel<<<>>>");
  std::vector<double2> host(blocks);
  CV_CUDA(
      cudaMemcpyAsync(host.data(), partials.get(), partials.bytes(), cudaMemcpyDeviceToHost, s));
  CV_CUDA(cudaStreamSynchronize(s));
  for (const double2& d : host) {
    e.kinetic += d.x;
    e.potential += d.y;
  }
  return e;
}

std::vector<float4> NBodyGpu::velocities(cudaStream_t s) const {
  std::vector<float4> out(count_);
  if (count_ == 0) return out;
  CV_CUDA(cudaMemcpyAsync(out.data(), vel_.get(), vel_.bytes(), cudaMemcpyDeviceToHost, s));
  CV_CUDA(cudaStreamSynchronize(s));
  return out;
}

}  // namespace cv::nbody
