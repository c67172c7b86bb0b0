#include "insight/launch_model.h"

#include <algorithm>

#include "common/parallel_for.h"

namespace cv::insight {
namespace {

unsigned long long cdiv(unsigned long long a, unsigned long long b) {
  return (a + b - 1) / b;
}

// Threads of the grid that have an element (Flat: one per per_thread elements).
unsigned long long flat_work_threads(const ElementLaunch& l) {
  return cdiv(l.count, l.per_thread);
}

// Rows of elements a block covers and columns, for the 2D layouts.
unsigned rows_per_block(const ElementLaunch& l) {
  return l.layout == Layout::RowsYz ? l.block.y * l.block.z : l.block.y;
}

// Working threads of one block, counted row by row (2D) or as a range (Flat).
unsigned long long block_working(const ElementLaunch& l, const Dim3u& grid, unsigned long long b) {
  if (l.layout == Layout::Flat) {
    const unsigned long long t = block_threads(l.block), first = b * t, work = flat_work_threads(l);
    return first >= work ? 0 : std::min<unsigned long long>(t, work - first);
  }
  const unsigned bx = static_cast<unsigned>(b % grid.x), by = static_cast<unsigned>(b / grid.x);
  const unsigned long long x0 = static_cast<unsigned long long>(bx) * l.block.x;
  const unsigned rows = rows_per_block(l);
  unsigned long long n = 0;
  for (unsigned r = 0; r < rows; ++r) {
    const unsigned long long gy = static_cast<unsigned long long>(by) * rows + r;
    if (gy >= l.height) break;
    const unsigned long long row_end =
        std::min<unsigned long long>(l.width, l.count - std::min(l.count, gy * l.width));
    if (row_end > x0) n += std::min<unsigned long long>(l.block.x, row_end - x0);
  }
  // Grid2d ignores threadIdx.z: every z layer repeats the same elements.
  return l.layout == Layout::Grid2d ? n * l.block.z : n;
}

}  // namespace

const char* to_string(ColourBy c) {
  switch (c) {
    case ColourBy::Normal:
      return "normal";
    case ColourBy::Block:
      return "block";
    case ColourBy::Warp:
      return "warp";
    case ColourBy::Thread:
      return "thread";
    case ColourBy::Sm:
      return "sm";
  }
  return "?";
}

std::optional<ColourBy> parse_colour_by(const std::string& name) {
  for (int i = 0; i <= static_cast<int>(ColourBy::Sm); ++i)
    if (name == to_string(static_cast<ColourBy>(i))) return static_cast<ColourBy>(i);
  return std::nullopt;
}

ElementLaunch make_launch(Layout layout, unsigned width, unsigned height, unsigned long long count,
                          const BlockShape& block, std::string name) {
  ElementLaunch l;
  l.layout = layout;
  l.width = width;
  l.height = height;
  l.count = count;
  l.block = {static_cast<unsigned>(block.x), static_cast<unsigned>(block.y),
             static_cast<unsigned>(block.z)};
  l.name = std::move(name);
  return l;
}

Dim3u grid_of(const ElementLaunch& l) {
  if (l.layout == Layout::Flat)
    return {static_cast<unsigned>(cdiv(flat_work_threads(l), block_threads(l.block))), 1, 1};
  return {static_cast<unsigned>(cdiv(l.width, l.block.x)),
          static_cast<unsigned>(cdiv(l.height, rows_per_block(l))), 1};
}

unsigned long long blocks_of(const ElementLaunch& l) {
  const Dim3u g = grid_of(l);
  return static_cast<unsigned long long>(g.x) * g.y * g.z;
}

long long element_of_thread(const ElementLaunch& l, const Dim3u& block, const Dim3u& thread) {
  if (l.layout == Layout::Flat) {
    const unsigned long long q = flat_index(block, thread, l.block);
    return q < flat_work_threads(l) ? static_cast<long long>(q * l.per_thread) : -1;
  }
  const Xy xy = l.layout == Layout::Grid2d ? grid2d_xy(block, thread, l.block)
                                           : rows_yz_xy(block, thread, l.block);
  if (xy.x >= l.width || xy.y >= l.height) return -1;
  const unsigned long long i = static_cast<unsigned long long>(xy.y) * l.width + xy.x;
  return i < l.count ? static_cast<long long>(i) : -1;
}

ThreadPos thread_of_element(const ElementLaunch& l, unsigned long long i) {
  if (l.layout == Layout::Flat) return flat_thread_pos(i / l.per_thread, l.block);
  const unsigned gx = static_cast<unsigned>(i % l.width), gy = static_cast<unsigned>(i / l.width);
  return l.layout == Layout::Grid2d ? grid2d_thread(gx, gy, l.block)
                                    : rows_yz_thread(gx, gy, l.block);
}

uint32_t model_id(const ElementLaunch& l, unsigned long long i, ColourBy mode) {
  const ThreadPos p = thread_of_element(l, i);
  return launch_id(static_cast<int>(mode), p.block, grid_of(l), p.thread, l.block, 0);
}

void fill_ids(const ElementLaunch& l, ColourBy mode, uint32_t* out) {
  parallel_for(static_cast<size_t>(l.count), [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) out[i] = model_id(l, i, mode);
  });
}

LaunchSummary summarize(const ElementLaunch& l, int resident_per_sm, int sm_count) {
  LaunchSummary s;
  s.grid = grid_of(l);
  s.blocks = blocks_of(l);
  const unsigned t = block_threads(l.block);
  s.threads_launched = s.blocks * t;
  s.warps = s.blocks * warps_per_block(l.block);
  for (unsigned long long b = 0; b < s.blocks; ++b) {
    const unsigned long long w = block_working(l, s.grid, b);
    s.threads_working += w;
    if (w < t) ++s.partial_blocks;
  }
  s.threads_idle = s.threads_launched - s.threads_working;
  s.resident_per_sm = resident_per_sm;
  s.sm_count = sm_count;
  if (resident_per_sm > 0 && sm_count > 0 && s.blocks > 0) {
    const unsigned long long wave = static_cast<unsigned long long>(resident_per_sm) * sm_count;
    s.waves = cdiv(s.blocks, wave);
    s.waves_exact = static_cast<double>(s.blocks) / static_cast<double>(wave);
    s.last_wave_fill =
        static_cast<double>(s.blocks - (s.waves - 1) * wave) / static_cast<double>(wave);
  }
  return s;
}

unsigned long long block_working_count(const ElementLaunch& l, unsigned long long block_lin) {
  return block_working(l, grid_of(l), block_lin);
}

BlockThreads block_threads_of(const ElementLaunch& l, unsigned long long block_lin) {
  BlockThreads bt;
  bt.block_dim = l.block;
  const Dim3u g = grid_of(l);
  const Dim3u b{static_cast<unsigned>(block_lin % g.x),
                static_cast<unsigned>((block_lin / g.x) % g.y),
                static_cast<unsigned>(block_lin / (static_cast<unsigned long long>(g.x) * g.y))};
  bt.working.assign(block_threads(l.block), 0);
  for (unsigned z = 0; z < l.block.z; ++z)
    for (unsigned y = 0; y < l.block.y; ++y)
      for (unsigned x = 0; x < l.block.x; ++x) {
        const Dim3u th{x, y, z};
        const bool w = element_of_thread(l, b, th) >= 0;
        bt.working[thread_linear(th, l.block)] = w;
        bt.working_count += w;
      }
  return bt;
}

}  // namespace cv::insight
