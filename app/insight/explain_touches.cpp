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

void draw_touches(const emu::Explain& x) {
  if (x.touches.empty()) {
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
  // buffer -> (thread, element) -> kinds
  std::map<std::pair<bool, std::string>, std::map<std::pair<unsigned, long long>, unsigned>> grid;
  for (const emu::Touch& t : x.touches)
    grid[{t.shared, t.buffer}][{t.thread, t.index}] |= 1u << t.kind;
  const unsigned rows = std::min(kMaxRows, std::max(1u, x.block_threads));
  for (const auto& [key, cells] : grid) {
    long long lo = cells.begin()->first.second, hi = lo;
    for (const auto& [c, k] : cells) lo = std::min(lo, c.second), hi = std::max(hi, c.second);
    const long long cols = std::min(kMaxCols, hi - lo + 1);
    ImGui::Text("%s%s[%lld .. %lld]%s: threads 0-%u down, elements across", key.second.c_str(),
                key.first ? " (shared)" : "", lo, lo + cols - 1, hi - lo + 1 > cols ? " (first 256)" : "", rows - 1);
    const float avail = ImGui::GetContentRegionAvail().x;
    const float cw = std::clamp(avail / static_cast<float>(cols), 1.f, 10.f);
    const float ch = std::clamp(240.f / rows, 1.f, 6.f) * ui::layout_scale();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    dl->AddRectFilled(o, ImVec2(o.x + cw * cols, o.y + ch * rows), IM_COL32(24, 26, 32, 255));
    for (const auto& [c, kinds] : cells) {
      if (c.first >= rows || c.second - lo >= cols) continue;
      const ImVec2 a(o.x + cw * static_cast<float>(c.second - lo), o.y + ch * c.first);
      dl->AddRectFilled(a, ImVec2(a.x + std::max(1.f, cw - (cw > 3 ? 1.f : 0.f)), a.y + std::max(1.f, ch)),
                        cell_colour(kinds));
    }
    ImGui::Dummy(ImVec2(cw * cols, ch * rows + 4));
  }
}

}  // namespace cv::insight_ui
