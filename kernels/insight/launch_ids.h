#pragma once
// Who computed an element: the block, warp and lane of a launch, written once
// for the kernels that report them (colour by launch), the CPU pass that
// derives them on the CPU backend, and the launch-map and memory-access models.
//
// A launch is described by plain numbers (Dim3u), so the same functions run on
// the host with made-up shapes and on the device with blockIdx/threadIdx.
#include <cstdint>

#include "common/hd.h"

namespace cv::insight {

constexpr unsigned kWarpSize = 32;  // every architecture CUDA 13 supports

struct Dim3u {
  unsigned x = 1, y = 1, z = 1;
};

// What a particle is coloured by. The numbers are the kernels' `mode` argument
// and the particle shader's u_colour_by (shaders/particles.vert).
enum class ColourBy : int { Normal = 0, Block = 1, Warp = 2, Thread = 3, Sm = 4 };

// The block's position in the grid, x fastest (as the hardware numbers them).
CV_HD unsigned block_linear(const Dim3u& block, const Dim3u& grid) {
  return (block.z * grid.y + block.y) * grid.x + block.x;
}
// The thread's position in its block, x fastest: warps are cut from this order.
CV_HD unsigned thread_linear(const Dim3u& thread, const Dim3u& block_dim) {
  return (thread.z * block_dim.y + thread.y) * block_dim.x + thread.x;
}
CV_HD unsigned block_threads(const Dim3u& block_dim) {
  return block_dim.x * block_dim.y * block_dim.z;
}
CV_HD unsigned warp_in_block(unsigned thread_lin) {
  return thread_lin / kWarpSize;
}
CV_HD unsigned lane_of(unsigned thread_lin) {
  return thread_lin % kWarpSize;
}
CV_HD unsigned warps_per_block(const Dim3u& block_dim) {
  return (block_threads(block_dim) + kWarpSize - 1) / kWarpSize;
}

// The id a kernel writes for its element in `mode`: the block's linear id, the
// warp's id over the whole grid (block * warps a block + warp), the lane, or
// the SM. Normal writes nothing (0).
CV_HD uint32_t launch_id(int mode, const Dim3u& block, const Dim3u& grid, const Dim3u& thread,
                         const Dim3u& block_dim, unsigned smid) {
  const unsigned b = block_linear(block, grid), t = thread_linear(thread, block_dim);
  switch (mode) {
    case static_cast<int>(ColourBy::Block):
      return b;
    case static_cast<int>(ColourBy::Warp):
      return b * warps_per_block(block_dim) + warp_in_block(t);
    case static_cast<int>(ColourBy::Thread):
      return lane_of(t);
    case static_cast<int>(ColourBy::Sm):
      return smid;
    default:
      return 0;
  }
}

// The optional output of a kernel that reports who computed each element:
// ids[i] = launch_id(mode, ...) for element i, or nothing when ids is null.
struct IdsOut {
  uint32_t* ids = nullptr;
  int mode = 0;
};

// --- Where a thread works: the launch layouts of the particle scenes ---------
// The global 2D coordinate of a thread in the document's 2D grid of 2D blocks
// (fountain): x from block.x/thread.x, y from block.y/thread.y.
struct Xy {
  unsigned x, y;
};
CV_HD Xy grid2d_xy(const Dim3u& block, const Dim3u& thread, const Dim3u& block_dim) {
  return {block.x * block_dim.x + thread.x, block.y * block_dim.y + thread.y};
}
// The inverse for a 2D launch: which block and thread handle coordinate (gx, gy).
struct ThreadPos {
  Dim3u block, thread;
};
CV_HD ThreadPos grid2d_thread(unsigned gx, unsigned gy, const Dim3u& block_dim) {
  ThreadPos p;
  p.block = {gx / block_dim.x, gy / block_dim.y, 0};
  p.thread = {gx % block_dim.x, gy % block_dim.y, 0};
  return p;
}
// The swarm's layout: y and z threads together walk rows, so a block covers
// block_dim.x columns and block_dim.y * block_dim.z rows.
CV_HD Xy rows_yz_xy(const Dim3u& block, const Dim3u& thread, const Dim3u& block_dim) {
  return {block.x * block_dim.x + thread.x,
          (block.y * block_dim.z + thread.z) * block_dim.y + thread.y};
}
CV_HD ThreadPos rows_yz_thread(unsigned gx, unsigned gy, const Dim3u& block_dim) {
  const unsigned rows = block_dim.y * block_dim.z, r = gy % rows;
  ThreadPos p;
  p.block = {gx / block_dim.x, gy / rows, 0};
  p.thread = {gx % block_dim.x, r % block_dim.y, r / block_dim.y};
  return p;
}
// 1D kernels flatten the block (common/block_sum.cuh): flat thread q of the grid.
CV_HD unsigned long long flat_index(const Dim3u& block, const Dim3u& thread,
                                    const Dim3u& block_dim) {
  return static_cast<unsigned long long>(block.x) * block_threads(block_dim) +
         thread_linear(thread, block_dim);
}
CV_HD ThreadPos flat_thread_pos(unsigned long long q, const Dim3u& block_dim) {
  const unsigned n = block_threads(block_dim), t = static_cast<unsigned>(q % n);
  ThreadPos p;
  p.block = {static_cast<unsigned>(q / n), 0, 0};
  p.thread = {t % block_dim.x, (t / block_dim.x) % block_dim.y, t / (block_dim.x * block_dim.y)};
  return p;
}

}  // namespace cv::insight
