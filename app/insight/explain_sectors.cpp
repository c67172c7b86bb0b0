#include "insight/explain_sectors.h"

#include <imgui.h>

#include <algorithm>
#include <set>

#include "insight/access_model.h"
#include "insight/view_common.h"
#include "usercode/emu/explain_json.h"
#include "widgets/widgets.h"

namespace cv::insight_ui {

void draw_explain_request(const emu::WarpRequest& r, int index) {
  ImGui::PushID(index);
  unsigned active = 0;
  for (long long a : r.lane_offset) active += a >= 0;
  ImGui::Text("line %d: %s %s (%u B a lane): %u lanes, %u sectors", r.line,
              r.kind == cv_emu::kWrite ? "ST" : r.kind == cv_emu::kAtomic ? "ATOM" : "LD", r.buffer.c_str(), r.bytes,
              active, r.sectors);
  std::set<long long> lines;
  for (long long a : r.lane_offset)
    if (a >= 0) lines.insert(a / insight::kLineBytes);
  const float avail = ImGui::GetContentRegionAvail().x;
  const float line_w = std::clamp(avail / std::max<size_t>(1, lines.size()) - 3.f, 8.f, 128.f);
  const float h = 16.f * ui::layout_scale(), scale = line_w / insight::kLineBytes;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  float x = o.x;
  long long prev = 0;
  bool first = true;
  for (long long line : lines) {
    if (!first && line != prev + 1) x += 3.f;  // a gap: lines far apart
    first = false;
    prev = line;
    const long long base = line * insight::kLineBytes;
    for (unsigned s = 0; s < insight::kLineBytes / insight::kSectorBytes; ++s) {
      const long long s0 = base + s * insight::kSectorBytes, s1 = s0 + insight::kSectorBytes;
      bool fetched = false;
      for (long long a : r.lane_offset) fetched |= a >= 0 && a < s1 && a + r.bytes > s0;
      const ImVec2 p0(x + s * insight::kSectorBytes * scale, o.y), p1(p0.x + insight::kSectorBytes * scale, o.y + h);
      dl->AddRectFilled(p0, p1, fetched ? IM_COL32(70, 75, 95, 255) : IM_COL32(30, 32, 40, 255));
      dl->AddRect(p0, p1, IM_COL32(120, 125, 150, 255));
    }
    for (unsigned lane = 0; lane < r.lane_offset.size(); ++lane) {
      const long long a = r.lane_offset[lane];
      if (a < 0 || a / insight::kLineBytes != line) continue;
      const float ax = x + static_cast<float>(a - base) * scale;
      dl->AddRectFilled(ImVec2(ax, o.y + 3), ImVec2(ax + std::max(1.f, r.bytes * scale), o.y + h - 3),
                        lane_colour(lane));
    }
    dl->AddRect(ImVec2(x, o.y - 1), ImVec2(x + line_w, o.y + h + 1), IM_COL32(220, 220, 230, 255), 0, 0, 1.5f);
    x += line_w;
    if (x > o.x + avail) break;
  }
  ImGui::Dummy(ImVec2(avail, h + 4));
  ImGui::PopID();
}

void draw_sector_table(const emu::Explain& x) {
  if (x.sectors.empty()) {
    ui::wrapped(ui::kDim, "no global-memory access was recorded");
    return;
  }
  if (!ImGui::BeginTable("sectors", 6, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit)) return;
  for (const char* h : {"line", "buffer", "access", "requests", "sectors / request", "bytes used"})
    ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  for (const emu::SectorLine& s : x.sectors) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    if (s.call_line && s.call_line != s.line) ImGui::Text("%d (called at %d)", s.line, s.call_line);
    else ImGui::Text("%d", s.line);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(s.buffer.c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%s %u B", emu::kind_name(s.kind), s.bytes);
    ImGui::TableNextColumn();
    ImGui::Text("%llu", s.requests);
    ImGui::TableNextColumn();
    if (!s.requests) {  // every load of it a repeat the GPU's compiler keeps in a register
      ImGui::TextDisabled("in registers");
      ImGui::TableNextColumn();
      continue;
    }
    const double ideal = std::max(1.0, 32.0 * s.bytes / insight::kSectorBytes);
    ImGui::TextColored(s.sectors_per_request > ideal * 1.5 ? ui::kWarn : ui::kGood, "%.2f", s.sectors_per_request);
    if (s.unrolled > 1 && ImGui::IsItemHovered())
      ImGui::SetTooltip("The GPU's compiler unrolled this loop %u times, the remainder's passes %s the\n"
                        "unrolled ones: the warp's lanes meet in requests as that code runs them.",
                        s.unrolled, s.remainder_first ? "before" : "after");
    ImGui::TableNextColumn();
    ImGui::Text("%.0f%%", 100.0 * s.efficiency);
  }
  ImGui::EndTable();
}

}  // namespace cv::insight_ui
