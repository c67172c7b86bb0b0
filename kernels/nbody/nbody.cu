// CUDA kernels of the n-body scene: three force kernels with the same
// per-interaction math (nbody_math.h), a gather of the VBO positions into a
// padded snapshot, a finish kernel that gathers the force sums and integrates,
// and the energy on demand (double sums). The fast variant's pairs kernels are
// in nbody_pairs.cu.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "common/block_sum.cuh"
#include "common/launch.h"
#include "insight/launch_ids.cuh"
#include "nbody/fast_build.h"
#include "nbody/nbody.h"

namespace cv::nbody {
namespace {



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
__global__ void forces_original(const float4* __restrict__ bodies, float4* __restrict__ acc, unsigned n,
                            float eps2) {
  const unsigned i = blockIdx.x * block_threads() + flat_thread();
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
  const unsigned t = flat_thread(), nt = block_threads();
  const unsigned i = blockIdx.x * nt + t;
  const float3 xi = xyz(bodies[i]);  // padded: i < round_up(n, nt) <= n + kBodyPad
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

}  // namespace

// Where the force kernels leave each body's acceleration (without G): float
// partials, one per j-slice, summed in slice order; or (pairs builds) x, y, z
// planes of 64-bit fixed-point sums.
struct ForceSums {
  const float4* sliced = nullptr;
  unsigned slices = 1;
  const unsigned long long* fixed = nullptr;
  size_t stride = 0;
  float inv_scale = 0.f;

  __device__ float3 at(unsigned i, unsigned n) const {
    if (fixed)
      return make_float3(__ll2float_rn(static_cast<long long>(fixed[i])) * inv_scale,
                         __ll2float_rn(static_cast<long long>(fixed[stride + i])) * inv_scale,
                         __ll2float_rn(static_cast<long long>(fixed[2 * stride + i])) * inv_scale);
    float3 a = xyz(sliced[i]);
    for (unsigned s = 1; s < slices; ++s) {
      const float4 p = sliced[static_cast<size_t>(s) * n + i];
      a.x += p.x;
      a.y += p.y;
      a.z += p.z;
    }
    return a;
  }
};

namespace {

// Gathers body i's acceleration from the force kernel's sums; then either
// stores G a in `out` (for accelerations() and the energy) or kicks and drifts
// it and writes the VBO (x, y, z, |v|) and the velocity (vx, vy, vz, m).
template <bool Integrate>
__global__ void finish_kernel(const float4* __restrict__ bodies, ForceSums sums,
                              float4* out, float4* __restrict__ vel,
                              float4* __restrict__ vbo, unsigned n, float G, float kick, float dt,
                              insight::IdsOut ids = {}) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  insight::write_launch_id(ids, i);
  const float3 a = sums.at(i, n);
  if (!Integrate) {
    out[i] = make_float4(G * a.x, G * a.y, G * a.z, 0.f);
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
  const unsigned t = flat_thread(), nt = block_threads();
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
    : count_(count), bodies_(static_cast<size_t>(count) + kBodyPad), vel_(count), acc_(count) {}

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
  mass_sum_ = 0;
  for (const float4& v : b.vel) mass_sum_ += std::fabs(static_cast<double>(v.w));
  synced_ = true;
  last_dt_ = 0;
}

void NBodyGpu::reset(float4* vbo, Initial ic, const Params& p, uint64_t seed, cudaStream_t s) {
  load(vbo, make_bodies(ic, count_, p, seed), s);
}

void NBodyGpu::gather(const float4* vbo, unsigned threads, cudaStream_t s) {
  const unsigned total = count_ + kBodyPad;
  gather_kernel<<<ceil_div(total, threads), threads, 0, s>>>(vbo, vel_.get(), bodies_.get(), count_,
                                                             total);
  cuda_check_launch("nbody gather_kernel<<<>>>");
}

namespace {


void require_fast_block(const BlockShape& b) {
  if (b.threads() % 32 != 0)
    throw std::invalid_argument(
        "nbody fast: the block must have a multiple of 32 threads (x*y*z = " +
        std::to_string(b.threads()) + " for " + to_string(b) + ")");
}

}  // namespace

KernelAttributes kernel_attributes(Variant v, const BlockShape& block, const std::string& tile_name) {
  const DynamicShared tile{static_cast<long long>(sizeof(float4)), 0};
  switch (v) {
    case Variant::Original:
      return query_kernel_attributes(reinterpret_cast<const void*>(&forces_original),
                                     "nbody forces_original");
    case Variant::Tiled:
      return query_kernel_attributes(reinterpret_cast<const void*>(&forces_tiled),
                                     "nbody forces_tiled", tile);
    case Variant::Fast:
      break;
  }
  try {
    const FastBuild& b = fast_build(block, tile_name);
    if (!b.pairs()) {
      KernelAttributes a =
          query_kernel_attributes(b.kernel, std::string("nbody forces_fast ") + b.name, tile);
      a.note = "tile build " + std::string(b.name) + ": " + std::to_string(b.bodies) +
               " bodies a thread, blocks of up to " + std::to_string(b.max_threads) + " threads";
      return a;
    }
    KernelAttributes a = query_kernel_attributes(
        b.kernel, std::string("nbody forces_pairs ") + b.name, pairs_dynamic_shared(b));
    a.note = "pairs build " + std::string(b.name) + ": each pair once, " +
             std::to_string(b.bodies) + " bodies a lane, blocks of up to " +
             std::to_string(b.max_threads) + " threads";
    return a;
  } catch (const std::exception& e) {
    KernelAttributes a;
    a.name = "nbody forces_fast";
    a.error = e.what();
    return a;
  }
}

void NBodyGpu::set_fast_tile(const std::string& tile) {
  if (!tile.empty() && tile != "auto" && !find_build(tile))
    throw std::invalid_argument(unknown_build(tile, ""));
  fast_tile_ = tile;
}

NBodyGpu::FastLaunch NBodyGpu::fast_launch(const BlockShape& block) const {
  require_fast_block(block);
  const FastBuild& b = fast_build(block, fast_tile_);
  const unsigned nt = static_cast<unsigned>(block.threads());
  require_valid(block, static_cast<long long>(build_shared(b, nt)));
  FastLaunch l;
  l.build = b.name;
  l.pairs = b.pairs();
  l.per_thread = b.bodies;
  l.set_bodies = b.bodies * nt;
  if (count_ == 0) return l;
  const unsigned resident = resident_blocks(b, nt);
  if (b.pairs()) {
    const PairsPlan& plan = pairs_plan(b, nt, resident);
    l.blocks = static_cast<unsigned>(plan.items.size());
    l.slices = plan.max_pieces;
    return l;
  }
  const unsigned i_blocks = ceil_div(count_, static_cast<unsigned long long>(b.bodies) * nt);
  l.slices = choose_slices(i_blocks, ceil_div(count_, nt), resident);
  l.blocks = i_blocks * l.slices;
  return l;
}

namespace {

// Fixed-point units a unit of acceleration (without G): no sum of pulls
// exceeds kMaxPull * mass_sum / eps2 (nbody_math.h), which lands at 2^61,
// a quarter of the int64 range. Capped so that the scale stays a float.
double fixed_scale(double mass_sum, float eps2) {
  const double bound = kMaxPull * mass_sum / eps2;
  if (!(bound > 0) || !std::isfinite(bound)) return 1.0;
  return std::min(std::ldexp(1.0, 61) / bound, std::ldexp(1.0, 100));
}

}  // namespace

const PairsPlan& NBodyGpu::pairs_plan(const FastBuild& b, unsigned threads,
                                      unsigned resident) const {
  const PairsKey key{threads, b.name, resident};
  if (!(pairs_key_ == key) || pairs_plan_.items.empty()) {
    pairs_plan_ = plan_pairs(count_, pairs_shape(threads, b.bodies), resident);
    pairs_key_ = key;
  }
  return pairs_plan_;
}

ForceSums NBodyGpu::fast_pairs(const FastBuild& b, const Params& p, const BlockShape& block,
                               cudaStream_t s) {
  const unsigned nt = static_cast<unsigned>(block.threads());
  const PairsPlan& plan = pairs_plan(b, nt, resident_blocks(b, nt));
  if (!(items_key_ == pairs_key_) || pairs_items_.size() == 0) {
    pairs_items_ = DeviceBuffer<uint4>(plan.items.size());  // cudaFree waits for pending work
    // On the launch's stream: a plain cudaMemcpy from pageable memory may return
    // before its DMA lands, and as legacy-stream work it is not ordered before
    // the kernel on a non-blocking stream (the scenes' streams are), which could
    // then read a fresh, unwritten work list.
    CV_CUDA(cudaMemcpyAsync(pairs_items_.get(), plan.items.data(), pairs_items_.bytes(),
                            cudaMemcpyHostToDevice, s));
    items_key_ = pairs_key_;
  }
  const size_t stride = static_cast<size_t>(count_) + kBodyPad;  // >= plan.padded()
  if (fixed_.size() < 3 * stride) fixed_ = DeviceBuffer<unsigned long long>(3 * stride);
  CV_CUDA(cudaMemsetAsync(fixed_.get(), 0, fixed_.bytes(), s));
  const float eps2 = p.softening * p.softening;
  const double scale = fixed_scale(mass_sum_, eps2);
  const PairsShape& shape = plan.shape;
  b.launch_pairs(to_dim3(block), s,
                 PairsArgs{bodies_.get(), pairs_items_.get(),
                           static_cast<unsigned>(plan.items.size()), fixed_.get(), stride,
                           shape.chunks, shape.shared_bytes(), eps2, static_cast<float>(scale)});
  cuda_check_launch("nbody forces_pairs<<<>>>");
  ForceSums sums;
  sums.fixed = fixed_.get();
  sums.stride = stride;
  sums.inv_scale = static_cast<float>(1.0 / scale);
  return sums;
}

ForceSums NBodyGpu::forces(Variant v, const Params& p, const BlockShape& block, cudaStream_t s) {
  require_softening(p);  // every force evaluation passes here; the potential alone allows eps = 0
  const unsigned nt = static_cast<unsigned>(block.threads());
  const float eps2 = p.softening * p.softening;
  const dim3 threads = to_dim3(block);
  ForceSums sums;
  sums.sliced = acc_.get();
  switch (v) {
    case Variant::Original:
      forces_original<<<ceil_div(count_, nt), threads, 0, s>>>(bodies_.get(), acc_.get(), count_, eps2);
      cuda_check_launch("nbody forces_original<<<>>>");
      return sums;
    case Variant::Tiled:
      forces_tiled<<<ceil_div(count_, nt), threads, nt * sizeof(float4), s>>>(
          bodies_.get(), acc_.get(), count_, eps2);
      cuda_check_launch("nbody forces_tiled<<<>>>");
      return sums;
    case Variant::Fast: {
      const FastBuild& b = fast_build(block, fast_tile_);
      require_valid(block, static_cast<long long>(build_shared(b, nt)));
      if (b.pairs()) return fast_pairs(b, p, block, s);
      const unsigned slices = fast_slices(block);
      const size_t need = static_cast<size_t>(slices) * count_;
      if (acc_.size() < need) acc_ = DeviceBuffer<float4>(need);  // cudaFree waits for pending work
      const dim3 grid(ceil_div(count_, static_cast<unsigned long long>(b.bodies) * nt), slices, 1);
      const unsigned tiles = ceil_div(count_, nt);
      b.launch(grid, threads, build_shared(b, nt), s, bodies_.get(), acc_.get(), count_, tiles,
               eps2);
      cuda_check_launch("nbody forces_fast<<<>>>");
      sums.sliced = acc_.get();
      sums.slices = slices;
      return sums;
    }
  }
  throw std::invalid_argument("nbody: unknown variant");
}

namespace {

void require_block(Variant v, const BlockShape& block) {
  if (v == Variant::Original) {
    require_valid(block);
  } else {
    require_valid(block, block.threads() * static_cast<long long>(sizeof(float4)));
    if (v == Variant::Fast) require_fast_block(block);
  }
}

}  // namespace

void NBodyGpu::step(float4* vbo, const Params& p, Variant v, const BlockShape& block,
                    cudaStream_t s, const insight::IdsOut& ids) {
  step_from(vbo, vbo, p, v, block, s, ids);
}

void NBodyGpu::step_from(const float4* source, float4* vbo, const Params& p, Variant v,
                         const BlockShape& block, cudaStream_t s, const insight::IdsOut& ids) {
  require_block(v, block);
  if (count_ == 0) return;
  const unsigned nt = static_cast<unsigned>(block.threads());
  gather(source, nt, s);  // the snapshot: vbo may be source, the finish kernel reads only it
  const ForceSums sums = forces(v, p, block, s);
  const float kick = p.G * (synced_ ? 0.5f * p.dt : 0.5f * (last_dt_ + p.dt));
  finish_kernel<true><<<ceil_div(count_, nt), nt, 0, s>>>(bodies_.get(), sums, nullptr, vel_.get(),
                                                          vbo, count_, p.G, kick, p.dt, ids);
  cuda_check_launch("nbody finish_kernel<<<>>>");
  synced_ = false;
  last_dt_ = p.dt;
}

size_t NBodyGpu::padded_count() const { return static_cast<size_t>(count_) + kBodyPad; }

const float4* NBodyGpu::snapshot(const float4* source, cudaStream_t s) {
  if (count_) gather(source, 256, s);
  return bodies_.get();
}

void NBodyGpu::step_with(const float4* acc, float4* vbo, const Params& p, const BlockShape& block,
                         cudaStream_t s, const insight::IdsOut& ids) {
  require_softening(p);
  require_valid(block);
  if (count_ == 0) return;
  const unsigned nt = static_cast<unsigned>(block.threads());
  ForceSums sums;
  sums.sliced = acc;
  const float kick = p.G * (synced_ ? 0.5f * p.dt : 0.5f * (last_dt_ + p.dt));
  finish_kernel<true><<<ceil_div(count_, nt), nt, 0, s>>>(bodies_.get(), sums, nullptr, vel_.get(),
                                                          vbo, count_, p.G, kick, p.dt, ids);
  cuda_check_launch("nbody finish_kernel<<<>>> (given accelerations)");
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
  const ForceSums sums = forces(v, p, block, s);
  finish_kernel<false><<<ceil_div(count_, nt), nt, 0, s>>>(bodies_.get(), sums, acc_.get(),
                                                           vel_.get(), nullptr, count_, p.G, 0.f,
                                                           0.f);
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
    const ForceSums sums = forces(nt % 32 == 0 ? Variant::Fast : Variant::Tiled, p, block, s);
    finish_kernel<false><<<ceil_div(count_, nt), nt, 0, s>>>(
        bodies_.get(), sums, acc_.get(), vel_.get(), nullptr, count_, p.G, 0.f, 0.f);
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
