#include "insight/launch_map_view.h"

#include <algorithm>
#include <cstdio>

#include "common/device_report.h"
#include "common/occupancy_cuda.h"
#include "scenes/particle_scene.h"
#include "tuning/kernel_catalog.h"
#include "widgets/widgets.h"

namespace cv::insight_ui {
namespace {

using insight::ElementLaunch;

bool same_launch(const ElementLaunch& a, const ElementLaunch& b) {
  return a.layout == b.layout && a.width == b.width && a.height == b.height && a.count == b.count &&
         a.block.x == b.block.x && a.block.y == b.block.y && a.block.z == b.block.z &&
         a.per_thread == b.per_thread;
}

const char* kNotice =
    "Every tile is a block; the selected block's threads are grouped into warps of 32 "
    "(colour = warp). Threads past the edge of the particle grid still launch, take a "
    "warp slot, and exit at once (grey): a block shape that does not divide the grid "
    "wastes them. A warp is cut from the block in x-fastest order, so 16x16 blocks make "
    "each warp two half-rows, 1x256 blocks make it a column. Blocks run in waves: at "
    "most SMs x resident blocks at once; a last wave that is nearly empty leaves most "
    "of the GPU idle at the end of the kernel.";

}  // namespace

Residency scene_residency(const ParticleScene& scene, Backend backend) {
  Residency r;
  if (backend != Backend::Cuda || !device_report().available) {
    r.note = "resident blocks and waves need a GPU (an SM's limits and the kernel's registers)";
    return r;
  }
  const auto pick = tuning::scene_kernel(scene);
  if (!pick) {
    r.note = "no kernel of ours to ask about";
    return r;
  }
  const CudaAnswer a =
      cuda_active_blocks_per_sm(pick->attributes, static_cast<int>(pick->block.threads()));
  if (!a.ok) {
    r.note = a.error;
    return r;
  }
  r.blocks_per_sm = a.value;
  r.sm_count = device_report().sm_count;
  r.note = "cudaOccupancyMaxActiveBlocksPerMultiprocessor for " + pick->attributes.name;
  return r;
}

void LaunchMapView::draw(const ViewContext& ctx) {
  if (!window_.begin(ctx.layout)) return;
  notice(kNotice);
  const auto launch = ctx.scene.element_launch();
  if (!launch) {
    ImGui::TextWrapped("The %s scene has no per-particle kernel launch to map.", ctx.scene.name());
    window_.end(ctx.layout);
    return;
  }
  const Residency r = scene_residency(ctx.scene, ctx.backend);
  if (!cached_launch_ || !same_launch(*cached_launch_, *launch) ||
      cached_resident_ != r.blocks_per_sm) {
    summary_ = insight::summarize(*launch, r.blocks_per_sm, r.sm_count);
    cached_launch_ = launch;
    cached_resident_ = r.blocks_per_sm;
  }
  selected_ = std::min<unsigned long long>(selected_, summary_.blocks ? summary_.blocks - 1 : 0);
  ImGui::Text("%s: %u x %u particles, block %ux%ux%u", launch->name.c_str(), launch->width,
              launch->height, launch->block.x, launch->block.y, launch->block.z);
  draw_numbers(summary_, r);
  draw_tiles(*launch, summary_);
  draw_block(*launch);
  window_.end(ctx.layout);
}

void LaunchMapView::draw_numbers(const insight::LaunchSummary& s, const Residency& r) {
  const double idle = s.threads_launched ? 100.0 * s.threads_idle / s.threads_launched : 0;
  ImGui::Text("grid %u x %u = %llu blocks, %llu warps", s.grid.x, s.grid.y, s.blocks, s.warps);
  ImGui::Text("threads launched %s, working %s, idle %s (%.1f%%)",
              ui::si(s.threads_launched).c_str(), ui::si(s.threads_working).c_str(),
              ui::si(s.threads_idle).c_str(), idle);
  ImGui::Text("blocks with idle threads (the tail): %llu", s.partial_blocks);
  if (r.blocks_per_sm > 0) {
    ImGui::Text("resident: %d blocks / SM x %d SMs = %d blocks a wave", r.blocks_per_sm, r.sm_count,
                r.blocks_per_sm * r.sm_count);
    ImGui::Text("waves: %llu (%.2f); last wave %.0f%% full", s.waves, s.waves_exact,
                100.0 * s.last_wave_fill);
    ImGui::TextColored(ui::kDim, "%s", r.note.c_str());
  } else {
    needs_gpu(r.note.c_str());
  }
}

void LaunchMapView::draw_tiles(const ElementLaunch& l, const insight::LaunchSummary& s) {
  ui::section("Blocks (click one)");
  const float avail = ImGui::GetContentRegionAvail().x;
  const float tile = std::clamp(avail / static_cast<float>(std::max(1u, s.grid.x)), 2.f, 28.f);
  // A single row of thin tiles (1x256 blocks) stays visible: tiles at least 12 px high.
  const float tile_h = std::max(tile, s.grid.y <= 4 ? 12.f * ui::layout_scale() : tile);
  const unsigned cols = std::min<unsigned>(s.grid.x, static_cast<unsigned>(avail / tile));
  const unsigned rows =
      std::min<unsigned>(s.grid.y, static_cast<unsigned>(180.f * ui::layout_scale() / tile_h) + 1);
  if (cols < s.grid.x || rows < s.grid.y)
    ImGui::TextColored(ui::kDim, "showing %u x %u of %u x %u blocks", cols, rows, s.grid.x,
                       s.grid.y);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const unsigned threads = insight::block_threads(l.block);
  for (unsigned y = 0; y < rows; ++y)
    for (unsigned x = 0; x < cols; ++x) {
      const unsigned long long b = static_cast<unsigned long long>(y) * s.grid.x + x;
      const unsigned long long w = insight::block_working_count(l, b);
      const ImU32 c = w == threads ? id_colour(static_cast<uint32_t>(b), 0.85f)
                      : w == 0     ? IM_COL32(90, 90, 90, 255)
                                   : IM_COL32(255, 170, 60, 255);
      const ImVec2 a(o.x + x * tile, o.y + y * tile_h);
      dl->AddRectFilled(
          a, ImVec2(a.x + tile - (tile > 4 ? 1 : 0), a.y + tile_h - (tile_h > 4 ? 1 : 0)), c);
      if (b == selected_)
        dl->AddRect(a, ImVec2(a.x + tile, a.y + tile_h), IM_COL32(255, 255, 255, 255), 0, 0, 2.f);
    }
  ImGui::InvisibleButton("tiles", ImVec2(std::max(1.f, cols * tile), std::max(1.f, rows * tile_h)));
  if (ImGui::IsItemClicked()) {
    const ImVec2 m = ImGui::GetIO().MousePos;
    const unsigned x = static_cast<unsigned>((m.x - o.x) / tile),
                   y = static_cast<unsigned>((m.y - o.y) / tile_h);
    if (x < cols && y < rows) selected_ = static_cast<unsigned long long>(y) * s.grid.x + x;
  }
  ImGui::TextColored(ui::kDim, "colour: a full block; orange: some threads idle; grey: all idle");
  int sel = static_cast<int>(selected_);
  if (ImGui::InputInt("selected block", &sel) && sel >= 0 &&
      static_cast<unsigned long long>(sel) < s.blocks)
    selected_ = static_cast<unsigned long long>(sel);
  ImGui::SameLine();
  if (ImGui::SmallButton("last")) selected_ = s.blocks ? s.blocks - 1 : 0;
}

void LaunchMapView::draw_block(const ElementLaunch& l) {
  const insight::BlockThreads bt = insight::block_threads_of(l, selected_);
  const unsigned n = static_cast<unsigned>(bt.working.size());
  ui::section("The selected block's threads (colour = warp, grey = exits early)");
  ImGui::Text("block %llu: %u threads, %u working, %u warps", selected_, n, bt.working_count,
              insight::warps_per_block(l.block));
  // Laid out as the block is (x right, y down, z layers side by side) when the
  // cells stay readable, else one row per warp.
  const float avail = ImGui::GetContentRegionAvail().x;
  const unsigned bx = l.block.x * l.block.z, by = l.block.y;
  float cell = std::min(avail / bx, 220.f * ui::layout_scale() / by);
  const bool spatial = cell >= 4.f;
  if (!spatial) cell = std::min(avail / 32.f, 14.f * ui::layout_scale());
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  for (unsigned t = 0; t < n; ++t) {
    const unsigned x = t % l.block.x, y = (t / l.block.x) % l.block.y,
                   z = t / (l.block.x * l.block.y);
    const float px = spatial ? (z * l.block.x + x) * cell : (t % 32) * cell;
    const float py = spatial ? y * cell : (t / 32) * cell;
    const ImU32 c =
        bt.working[t] ? id_colour(insight::warp_in_block(t)) : IM_COL32(80, 80, 80, 255);
    dl->AddRectFilled(ImVec2(o.x + px, o.y + py), ImVec2(o.x + px + cell - 1, o.y + py + cell - 1),
                      c);
  }
  const float h = spatial ? by * cell : ((n + 31) / 32) * cell;
  ImGui::Dummy(ImVec2(spatial ? bx * cell : 32 * cell, h));
  ImGui::TextColored(
      ui::kDim, spatial
                    ? "laid out as the block: x to the right, y down"
                    : "one row per warp (32 lanes): the block is too narrow to draw as laid out");
}

}  // namespace cv::insight_ui
