#include "insight/memory_view.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "common/device_report.h"
#include "scenes/particle_scene.h"
#include "widgets/widgets.h"

namespace cv::insight_ui {
namespace {

const BlockShape kShapes[] = {{16, 16, 1}, {32, 8, 1}, {256, 1, 1}, {1, 256, 1}, {8, 8, 1}};
const char* kShapeNames =
    "the scene's block\0"
    "16x16\0"
    "32x8\0"
    "256x1\0"
    "1x256\0"
    "8x8\0";

const char* kNotice =
    "A warp's load or store is one request; the memory system serves it in 32-byte "
    "sectors (and caches 128-byte lines). When the 32 lanes read neighbouring "
    "addresses (a warp along x: 256x1, 16x16, 32x8) a float4 load needs 16 sectors and "
    "every fetched byte is used. When the warp runs down a column (1x256) every lane "
    "sits in its own sector: 32 sectors for 16 useful bytes each (50%), and for the "
    "4-byte vy only 12.5% of what is fetched is used. Same kernel, same particles: "
    "only the block shape changed.";

}  // namespace

std::optional<insight::AccessKernel> scene_access_kernel(const ParticleScene& scene,
                                                         const BlockShape& block) {
  return scene.access_kernel(block);  // the scene's hook: nullopt where not modelled
}

void MemoryView::draw(const ViewContext& ctx) {
  if (!window_.begin(ctx.layout)) return;
  notice(kNotice);
  ImGui::SetNextItemWidth(160 * ui::layout_scale());
  ImGui::Combo("block shape", &shape_, kShapeNames);
  const BlockShape block = shape_ == 0 ? ctx.scene.block() : kShapes[shape_ - 1];
  const auto k = scene_access_kernel(ctx.scene, block);
  if (!k) {
    // Which scenes it can draw, from the registry (SceneDescriptor::access_model).
    std::string modelled, keys;
    for (const SceneDescriptor& d : scene_infos())
      if (d.access_model) {
        modelled += (modelled.empty() ? "the " : " and the ") + std::string(d.label) + "'s";
        keys += (keys.empty() ? "" : " or ") + std::to_string(d.hotkey);
      }
    ImGui::TextWrapped(
        "The memory view draws %s kernels (2D launches); the %s scene's kernel is not "
        "modelled. Switch scenes (key %s).",
        modelled.c_str(), ctx.scene.name(), keys.c_str());
    window_.end(ctx.layout);
    return;
  }
  const int warps = static_cast<int>(insight::warps_per_block(k->block_dim));
  const int blocks = static_cast<int>(std::min<unsigned long long>(
      static_cast<unsigned long long>(k->grid.x) * k->grid.y, 1u << 30));
  warp_ = std::clamp(warp_, 0, warps - 1);
  block_ = std::clamp(block_, 0, blocks - 1);
  ImGui::SetNextItemWidth(160 * ui::layout_scale());
  ImGui::SliderInt("warp", &warp_, 0, warps - 1);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(120 * ui::layout_scale());
  ImGui::InputInt("block", &block_);
  block_ = std::clamp(block_, 0, blocks - 1);
  const insight::WarpAccessPicture pic = insight::warp_accesses(*k, block_, warp_);
  ImGui::Text("%s, block %s: warp %d of block %d", pic.kernel.c_str(), to_string(block).c_str(),
              warp_, block_);
  ImGui::Text("sectors per request: %.1f   efficiency: %.0f%% of fetched bytes used",
              pic.sectors_per_request, 100.0 * pic.efficiency);
  for (size_t i = 0; i < pic.requests.size(); ++i)
    draw_request(pic.requests[i], static_cast<int>(i));
  draw_measured(ctx, pic);
  window_.end(ctx.layout);
}

// The request's touched 128-byte lines side by side (gaps between distant
// lines marked), each as 4 sectors; fetched sectors filled, the lanes' bytes
// drawn in their lane colours.
void MemoryView::draw_request(const insight::WarpRequest& r, int index) {
  ImGui::PushID(index);
  ImGui::Text("%s %s: %u lanes, %u sectors, %u lines, %.0f%%", r.spec.store ? "ST" : "LD",
              r.spec.what.c_str(), r.active_lanes, r.sectors, r.lines, 100.0 * r.efficiency);
  std::set<unsigned long long> lines;
  for (const auto& l : r.lanes)
    if (l.active) lines.insert(l.address / insight::kLineBytes);
  const float avail = ImGui::GetContentRegionAvail().x;
  const float line_w = std::clamp(avail / std::max<size_t>(1, lines.size()) - 3.f, 8.f, 128.f);
  const float h = 16.f * ui::layout_scale(), scale = line_w / insight::kLineBytes;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  float x = o.x;
  unsigned long long prev = 0;
  bool first = true;
  for (unsigned long long line : lines) {
    if (!first && line != prev + 1) x += 3.f;  // a gap: lines far apart
    first = false;
    prev = line;
    const unsigned long long base = line * insight::kLineBytes;
    for (unsigned s = 0; s < insight::kLineBytes / insight::kSectorBytes; ++s) {
      const unsigned long long s0 = base + s * insight::kSectorBytes,
                               s1 = s0 + insight::kSectorBytes;
      bool fetched = false;
      for (const auto& l : r.lanes)
        fetched |= l.active && l.address < s1 && l.address + r.spec.bytes > s0;
      const ImVec2 a(x + s * insight::kSectorBytes * scale, o.y);
      const ImVec2 b(a.x + insight::kSectorBytes * scale, o.y + h);
      dl->AddRectFilled(a, b, fetched ? IM_COL32(70, 75, 95, 255) : IM_COL32(30, 32, 40, 255));
      dl->AddRect(a, b, IM_COL32(120, 125, 150, 255));
    }
    for (unsigned lane = 0; lane < r.lanes.size(); ++lane) {
      const auto& l = r.lanes[lane];
      if (!l.active || l.address / insight::kLineBytes != line) continue;
      const float a = x + static_cast<float>(l.address - base) * scale;
      dl->AddRectFilled(ImVec2(a, o.y + 3),
                        ImVec2(a + std::max(1.f, r.spec.bytes * scale), o.y + h - 3),
                        lane_colour(lane));
    }
    dl->AddRect(ImVec2(x, o.y - 1), ImVec2(x + line_w, o.y + h + 1), IM_COL32(220, 220, 230, 255),
                0, 0, 1.5f);
    x += line_w;
    if (x > o.x + avail) break;
  }
  ImGui::Dummy(ImVec2(avail, h + 4));
  ImGui::PopID();
}

void MemoryView::draw_measured(const ViewContext& ctx, const insight::WarpAccessPicture& pic) {
  ui::section("Measured");
  if (ctx.backend != Backend::Cuda) {
    needs_gpu("the kernel's measured bandwidth");
    return;
  }
  const auto t = ctx.scene.throughput();
  const double peak = peak_memory_gb_per_s(device_report());
  if (t.contains("gb_per_s")) {
    const double gbs = t["gb_per_s"].get<double>();
    ImGui::Text("%s at block %s: %.0f GB/s useful (%.0f%% of the %.0f GB/s peak)",
                pic.kernel.c_str(), to_string(ctx.scene.block()).c_str(), gbs,
                peak > 0 ? 100.0 * gbs / peak : 0.0, peak);
    ImGui::TextColored(
        ui::kDim,
        "From the scene's kernel time (CUDA events); change the scene's block to compare.");
  } else {
    ImGui::TextColored(ui::kDim, "this scene reports no bandwidth; device peak %.0f GB/s", peak);
  }
}

}  // namespace cv::insight_ui
