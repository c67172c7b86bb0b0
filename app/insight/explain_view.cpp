#include "insight/explain_view.h"

#include <imgui.h>

#include <algorithm>

#include "insight/explain_sectors.h"
#include "insight/explain_touches.h"
#include "ui/kernel_panel.h"
#include "widgets/widgets.h"

namespace cv::insight_ui {
namespace {

const char* kNotice =
    "Your kernel ran once through the CPU emulator at a small size, every thread recorded. "
    "A race: two threads touched the same element, at least one wrote, and nothing ordered "
    "them (no __syncthreads() between them in one block; other blocks are never ordered); "
    "open a group for its threads. Sectors: a warp's load or store is one request, served in "
    "32-byte sectors; 32 lanes reading neighbouring 4-byte values need 4 (a float4 each: 16), "
    "scattered lanes up to 32. Divergence: a branch whose "
    "lanes of one warp go both ways runs both sides, one after the other.";

// One header per group (its sentence and what to change); its threads, the
// first few elements' pairs, one click away.
void races(const emu::Explain& x) {
  if (x.race_groups.empty()) {
    ui::wrapped(ui::kGood, "no race: every element two threads shared was ordered or atomic");
    return;
  }
  for (size_t i = 0; i < x.race_groups.size(); ++i) {
    const emu::RaceGroup& g = x.race_groups[i];
    ImGui::PushID(static_cast<int>(i));
    // The header short (a tree node's label does not wrap); the sentence and the fix under it.
    std::string head = (g.elements == 1 && !g.instances.empty() ? g.instances[0].element : g.buffer + "[]") +
                       " at line " + std::to_string(g.first.line);
    if (g.second.line != g.first.line) head += " and line " + std::to_string(g.second.line);
    head += ": " + std::to_string(g.elements) + (g.elements == 1 ? " element" : " elements");
    ImGui::PushStyleColor(ImGuiCol_Text, ui::kBad);
    const bool open = ImGui::TreeNodeEx("group", ImGuiTreeNodeFlags_SpanAvailWidth, "%s", head.c_str());
    ImGui::PopStyleColor();
    ui::wrapped(ui::kBad, g.sentence);
    ui::wrapped(ui::kWarn, g.fix);
    if (open) {
      const char* more = g.elements > g.instances.size() ? " (the first ones)" : "";
      ImGui::TextDisabled("%llu element%s, %llu + %llu threads%s:", g.elements, g.elements == 1 ? "" : "s",
                          g.first_threads, g.second_threads, more);
      for (const emu::Race& r : g.instances) ui::wrapped(ui::kDim, r.sentence);
      ImGui::TreePop();
    }
    ImGui::PopID();
  }
}

void divergence(const emu::Explain& x) {
  if (x.branches.empty()) {
    ui::wrapped(ui::kDim, "no `if` was reached");
    return;
  }
  for (const emu::Branch& b : x.branches) {
    const double total = static_cast<double>(b.lanes_taken + b.lanes_not_taken);
    ImGui::Text("line %d: %llu of %llu warp passes diverged; lanes %llu taken, %llu not", b.line,
                b.divergent_warps, b.warps, b.lanes_taken, b.lanes_not_taken);
    const float w = ImGui::GetContentRegionAvail().x, h = 6.f * ui::layout_scale();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const float split = total > 0 ? static_cast<float>(b.lanes_taken / total) * w : 0.f;
    dl->AddRectFilled(o, ImVec2(o.x + split, o.y + h), IM_COL32(110, 190, 120, 255));
    dl->AddRectFilled(ImVec2(o.x + split, o.y), ImVec2(o.x + w, o.y + h), IM_COL32(90, 95, 110, 255));
    ImGui::Dummy(ImVec2(w, h + 2));
  }
}

}  // namespace

void ExplainView::draw(const ViewContext& ctx, const KernelPanel* panel) {
  if (!panel) return;
  if (panel->explain().version() != seen_) {  // a new result: take it and show it
    result_ = panel->explain().result();
    seen_ = result_.version;
    touches_ = result_.explain ? touch_grid(*result_.explain) : TouchGrid{};
    window_.open();
  }
  const emu::ExplainResult& r = result_;
  if (!window_.begin(ctx.layout)) return;
  notice(kNotice);
  if (panel->explain().busy()) ui::wrapped(ui::kDim, "explaining: compiling and running your kernel on the CPU...");
  if (r.version == 0) {
    ui::wrapped(ui::kDim, "Press 'Explain' in the kernel tab: your kernel runs once in the CPU emulator "
                          "and this view shows what its threads did.");
    window_.end(ctx.layout);
    return;
  }
  ImGui::TextWrapped("%s kernel, %lld elements, grid %ux%ux%u of %ux%ux%u threads (emulated on the CPU: "
                     "compile %.0f ms, run %.1f ms)",
                     r.template_name.c_str(), r.n, r.grid[0], r.grid[1], r.grid[2], r.block[0], r.block[1],
                     r.block[2], r.compile_ms, r.run_ms);
  if (!r.error.empty()) ui::wrapped(ui::kBad, r.error);
  for (const std::string& l : r.printf_lines) ui::wrapped(ui::kDim, "printf: " + l);
  if (!r.explain) {
    window_.end(ctx.layout);
    return;
  }
  const emu::Explain& x = *r.explain;
  ui::wrapped(ui::kDim, x.scope + (x.truncated ? " Recording stopped at its limit (truncated)." : ""));

  char title[96];
  std::snprintf(title, sizeof title, "races (%zu group%s, %llu element%s)", x.race_groups.size(),
                x.race_groups.size() == 1 ? "" : "s", x.racy_elements, x.racy_elements == 1 ? "" : "s");
  ui::section(title);
  races(x);

  ui::section("memory: sectors per warp-wide request");
  draw_sector_table(x);
  if (!x.warp_requests.empty()) {
    const int n = static_cast<int>(x.warp_requests.size());
    ImGui::Text("warp %u of block (%u,%u,%u), request by request:", x.warp, x.block.x, x.block.y, x.block.z);
    for (int i = 0; i < std::min(n, 8); ++i) draw_explain_request(x.warp_requests[static_cast<size_t>(i)], i);
  }

  ui::section("divergence: lanes each way at every if");
  divergence(x);

  std::snprintf(title, sizeof title, "who touched what: block (%u,%u,%u)", x.block.x, x.block.y, x.block.z);
  ui::section(title);
  draw_touches(touches_);
  window_.end(ctx.layout);
}

}  // namespace cv::insight_ui
