// CUDA side of the splatter: one thread per particle, warp-aggregated 64-bit
// atomics (particles born together land on the same pixel, so lanes that hit
// the same pixel combine before touching memory), then one thread per pixel
// resolves and clears the accumulator for the next frame.
#include "common/cuda_check.h"
#include "common/launch.h"
#include "splat/splat.h"

namespace cv::splat {
namespace {

// Sum of `v` over the lanes in `peers`. sm_80+ has a single instruction for it;
// older GPUs (Turing, compute capability 7.5) shuffle every active lane's value
// under one common mask and keep the peers' (same result, more instructions).
__device__ __forceinline__ unsigned peer_sum(unsigned active, unsigned peers, unsigned v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  (void)active;
  return __reduce_add_sync(peers, v);
#else
  unsigned total = 0;
  for (int lane = 0; lane < 32; ++lane) {
    const unsigned other = __shfl_sync(active, v, lane);
    if (peers & (1u << lane)) total += other;
  }
  return total;
#endif
}

__global__ void accumulate(const float4* __restrict__ pos, unsigned count, View v,
                           unsigned long long* __restrict__ acc) {
  const unsigned tid = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  const unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x * blockDim.y * blockDim.z + tid;
  long long px = -1;
  uint64_t add = 0;
  if (i < count) {
    const float4 p = pos[i];
    px = pixel_of(p.x, p.y, p.z, v);
    add = contribution(p.w, v);
  }
  // Lanes of a full warp that hit the same pixel sum their contributions (hit
  // count in the high half, palette sum in the low half of a 32-bit word: at
  // most 32 hits and 32*255, no overflow) and the lowest lane adds for all.
  const unsigned active = __activemask();
  const unsigned key = px < 0 ? 0xffffffffu : static_cast<unsigned>(px);
  const unsigned peers = __match_any_sync(active, key);
  const unsigned packed = px < 0 ? 0u : (1u << 16) | static_cast<unsigned>(add & 0xffu);
  const unsigned total = peer_sum(active, peers, packed);
  if (px >= 0 && (tid & 31u) == static_cast<unsigned>(__ffs(peers) - 1)) {
    const uint64_t word = (static_cast<uint64_t>(total >> 16) << kSumBits) | (total & 0xffffu);
    atomicAdd(acc + px, static_cast<unsigned long long>(word));
  }
}

__global__ void resolve_and_clear(unsigned long long* __restrict__ acc, size_t pixels, int palette, float gain,
                                  uchar4* __restrict__ rgba) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x * blockDim.y * blockDim.z +
                   (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  if (i >= pixels) return;
  const unsigned long long a = acc[i];
  const Rgba8 c = resolve(a, palette, gain);
  rgba[i] = make_uchar4(c.r, c.g, c.b, c.a);
  if (a) acc[i] = 0;
}

}  // namespace

void Splatter::render(const float4* positions, unsigned count, const View& view, const Style& style, uchar4* rgba,
                      const BlockShape& block, cudaStream_t s) {
  require_valid(block);
  if (block.threads() % 32 != 0)
    throw std::invalid_argument("splat: block " + to_string(block) +
                                " has a partial warp; the warp-aggregated atomics need a multiple of 32 threads");
  if (view.width <= 0 || view.height <= 0) return;
  const size_t pixels = static_cast<size_t>(view.width) * static_cast<size_t>(view.height);
  if (pixels != pixels_) {
    acc_ = DeviceBuffer<unsigned long long>(pixels);
    CV_CUDA(cudaMemsetAsync(acc_.get(), 0, pixels * sizeof(unsigned long long), s));
    pixels_ = pixels;
  }
  if (count > 0) {
    // Threads ordered along x first: consecutive particles fill each warp.
    accumulate<<<grid_1d(count, block), to_dim3(block), 0, s>>>(positions, count, view, acc_.get());
    cuda_check_launch("splat::accumulate");
  }
  resolve_and_clear<<<grid_1d(pixels, block), to_dim3(block), 0, s>>>(acc_.get(), pixels, style.palette,
                                                                       style.gain, rgba);
  cuda_check_launch("splat::resolve_and_clear");
}

}  // namespace cv::splat
