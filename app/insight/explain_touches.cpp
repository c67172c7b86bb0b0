#include "insight/explain_touches.h"

#include <imgui.h>

#include <algorithm>
#include <map>

#include "insight/view_common.h"
#include "widgets/widgets.h"

namespace cv::insight_ui {
namespace {

constexpr unsigned kMaxRows = 256;   // threads drawn
constexpr long long kMaxCols = 256;  // elements drawn per buffer

ImU32 cell_colour(unsigned kinds) {
  if (kinds & 4) return IM_COL32(230, 190, 60, 255);          // atomic
  if ((kinds & 3) == 3) return IM_COL32(200, 110, 230, 255);  // read and write
  if (kinds & 2) return IM_COL32(230, 90, 80, 255);           // write
  return IM_COL32(90, 150, 230, 255);                         // read
}

}  // namespace

TouchGrid touch_grid(const emu::Explain& x) {
  TouchGrid g;
  g.threads = x.block_threads;
  std::map<std::pair<bool, std::string>, size_t> index;
  for (const emu::Touch& t : x.touches) {
    auto [it, fresh] = index.emplace(std::make_pair(t.shared, t.buffer), g.buffers.size());
    if (fresh) {
      g.buffers.push_back({t.buffer, t.shared, t.index, t.index, {}});
    }
    TouchGrid::Buffer& b = g.buffers[it->second];
    b.lo = std::min(b.lo, t.index), b.hi = std::max(b.hi, t.index);
    b.cells[{t.thread, t.index}] |= 1u << t.kind;
  }
  return g;
}

void draw_touches(const TouchGrid& g) {
  if (g.buffers.empty()) {
    ui::wrapped(ui::kDim, "the chosen block made no recorded access");
    return;
  }
  ImGui::TextColored(ImColor(90, 150, 230), "read");
  ImGui::SameLine();
  ImGui::TextColored(ImColor(230, 90, 80), "write");
  ImGui::SameLine();
  ImGui::TextColored(ImColor(200, 110, 230), "read and write");
  ImGui::SameLine();
  ImGui::TextColored(ImColor(230, 190, 60), "atomic");
  const unsigned rows = std::min(kMaxRows, std::max(1u, g.threads));
  for (const TouchGrid::Buffer& b : g.buffers) {
    const long long cols = std::min(kMaxCols, b.hi - b.lo + 1);
    ImGui::Text("%s%s[%lld .. %lld]%s: threads 0-%u down, elements across", b.name.c_str(),
                b.shared ? " (shared)" : "", b.lo, b.lo + cols - 1, b.hi - b.lo + 1 > cols ? " (the first 256)" : "",
                rows - 1);
    const float avail = ImGui::GetContentRegionAvail().x;
    const float cw = std::clamp(avail / static_cast<float>(cols), 1.f, 10.f);
    const float ch = std::clamp(240.f / rows, 1.f, 6.f) * ui::layout_scale();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    dl->AddRectFilled(o, ImVec2(o.x + cw * cols, o.y + ch * rows), IM_COL32(24, 26, 32, 255));
    for (const auto& [c, kinds] : b.cells) {
      if (c.first >= rows || c.second - b.lo >= cols) continue;
      const ImVec2 a(o.x + cw * static_cast<float>(c.second - b.lo), o.y + ch * c.first);
      dl->AddRectFilled(a, ImVec2(a.x + std::max(1.f, cw - (cw > 3 ? 1.f : 0.f)), a.y + std::max(1.f, ch)),
                        cell_colour(kinds));
    }
    ImGui::Dummy(ImVec2(cw * cols, ch * rows + 4));
  }
}

}  // namespace cv::insight_ui
