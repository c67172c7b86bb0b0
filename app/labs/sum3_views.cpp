// The sum3 lab's pictures: the thread grid of its 2D kernels and the document's
// table (its "document_table" action, labs/sum3_lab.cpp).
#include "labs/sum3_views.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <map>

#include "labs/lab_views.h"
#include "labs/sum3/sum3.h"
#include "widgets/widgets.h"

namespace cv::labs {

// The sum over the block's rows j of clamp(j - i0, 0, bx), in O(1).
unsigned long long sum3_working_in_block(unsigned long long i0, unsigned long long j0,
                                         unsigned long long bx, unsigned long long by,
                                         unsigned long long n) {
  if (n < 2) return 0;
  const unsigned long long a = j0, b = std::min(j0 + by, n - 1);  // rows j in [a, b)
  if (b <= a) return 0;
  unsigned long long w = 0;
  const unsigned long long lo = std::max(a, i0 + 1), mid_end = std::min(b, i0 + bx);
  if (mid_end > lo) w += ((lo - i0) + (mid_end - 1 - i0)) * (mid_end - lo) / 2;  // partial rows
  const unsigned long long full = std::max(a, i0 + bx);
  if (b > full) w += (b - full) * bx;  // rows where the whole block width works
  return w;
}

namespace {

// A cell's colour: per thread, working / idle / outside n; per block, shaded by
// the share of its threads that work.
ImU32 cell_colour(bool per_thread, unsigned long long c, unsigned long long r, long long n,
                  const BlockShape& block) {
  const ImU32 work = IM_COL32(90, 220, 120, 255), idle = IM_COL32(70, 75, 90, 255),
              none = IM_COL32(40, 40, 48, 255);
  auto working = [&](unsigned long long i, unsigned long long j) {
    return i < j && j + 1 < static_cast<unsigned long long>(n);
  };
  if (per_thread)
    return working(c, r)
               ? work
               : (c < static_cast<unsigned long long>(n) && r < static_cast<unsigned long long>(n)
                      ? idle
                      : none);
  const unsigned long long i0 = c * block.x, j0 = r * block.y;
  const unsigned long long w =
      sum3_working_in_block(i0, j0, block.x, block.y, static_cast<unsigned long long>(n));
  const float share = static_cast<float>(w) / static_cast<float>(block.threads());
  return share == 0.f
             ? idle
             : IM_COL32(static_cast<int>(70 + 20 * share), static_cast<int>(75 + 145 * share),
                        static_cast<int>(90 + 30 * share), 255);
}

// The (i, j) thread grid of the document's 2D kernels for n values and the block,
// working threads (upper triangle) lit, with how many idle.
void draw_grid(long long n, const BlockShape& block) {
  if (n < 3) {
    ImGui::TextColored(ui::kDim, "n < 3: no triples, nothing to launch");
    return;
  }
  const sum3::GridUsage g = sum3::grid_usage(static_cast<uint64_t>(n), block);
  ImGui::Text("grid %llux%llu blocks of %dx%d = %s threads",
              static_cast<unsigned long long>(g.grid_x), static_cast<unsigned long long>(g.grid_y),
              block.x, block.y, ui::si(static_cast<double>(g.threads)).c_str());
  ImGui::Text(
      "working (i < j < n-1): %s, idle: %s (%.1f%%), idle blocks: %llu of %llu",
      ui::si(static_cast<double>(g.working)).c_str(), ui::si(static_cast<double>(g.idle())).c_str(),
      g.threads ? 100.0 * static_cast<double>(g.idle()) / static_cast<double>(g.threads) : 0.0,
      static_cast<unsigned long long>(g.idle_blocks), static_cast<unsigned long long>(g.blocks));

  // The picture as the (i, j) matrix: row i (the x index, going down), column
  // j (the y index, going right), so the working threads i < j form the upper
  // triangle. Small launches show every thread; larger ones one cell per
  // block, shaded by the share of its threads that work.
  const float side = std::min(ImGui::GetContentRegionAvail().x, 240.f);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const unsigned long long cols_threads = g.grid_x * block.x, rows_threads = g.grid_y * block.y;
  const bool per_thread = cols_threads <= 96 && rows_threads <= 96;
  // c walks i (x), r walks j (y); drawn transposed below.
  const unsigned long long cols = per_thread ? cols_threads : g.grid_x,
                           rows = per_thread ? rows_threads : g.grid_y;
  const unsigned long long longest = std::max(cols, rows);
  const float cell = side / static_cast<float>(longest);
  const unsigned long long max_cells = 160;  // beyond that, sample every k-th cell
  const unsigned long long step = std::max(1ull, longest / max_cells);
  for (unsigned long long r = 0; r < rows; r += step)
    for (unsigned long long c = 0; c < cols; c += step) {
      const ImU32 colour = cell_colour(per_thread, c, r, n, block);
      const ImVec2 a(origin.x + r * cell, origin.y + c * cell);  // row i, column j
      const float sz = std::max(cell * static_cast<float>(step) - (cell > 4 ? 1.f : 0.f), 1.f);
      dl->AddRectFilled(a, ImVec2(a.x + sz, a.y + sz), colour);
    }
  ImGui::Dummy(ImVec2(side * static_cast<float>(rows) / static_cast<float>(longest),
                      side * static_cast<float>(cols) / static_cast<float>(longest) + 2));
  ImGui::PushStyleColor(ImGuiCol_Text, ui::kDim);
  ImGui::TextWrapped(
      "%s. Row i = x index (down), column j = y index (right). Green: threads with i < j < n-1, "
      "which loop over k > j; grey: idle threads of the launch.",
      per_thread ? "One cell a thread" : "One cell a block, brighter = more of its threads work");
  ImGui::PopStyleColor();
}

// The document table's runs: n down, variants across (ms median).
void draw_document_table(const std::vector<nlohmann::ordered_json>& rows) {
  // n -> variant -> ms
  std::map<long long, std::map<std::string, double>> t;
  for (const auto& r : rows)
    if (r.value("bench", "") == "sum3")
      t[r.value("n", 0ll)][r.value("variant", "")] = r.value("ms_median", 0.0);
  if (t.empty()) return;
  const char* cols[] = {"cpu", "naive", "shared"};
  if (ImGui::BeginTable("documenttable", 5, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableSetupColumn("n", ImGuiTableColumnFlags_WidthFixed, 50.f);
    for (const char* c : cols)
      ImGui::TableSetupColumn((std::string(c) + " ms").c_str(), ImGuiTableColumnFlags_WidthFixed,
                              80.f);
    ImGui::TableSetupColumn("shared vs cpu", ImGuiTableColumnFlags_WidthFixed, 100.f);
    ImGui::TableHeadersRow();
    for (const auto& [n, by] : t) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("%lld", n);
      for (const char* c : cols) {
        ImGui::TableNextColumn();
        auto it = by.find(c);
        if (it != by.end())
          ImGui::Text("%.3f", it->second);
        else
          ImGui::TextColored(ui::kDim, "-");
      }
      ImGui::TableNextColumn();
      auto cpu = by.find("cpu"), sh = by.find("shared");
      if (cpu != by.end() && sh != by.end() && sh->second > 0)
        ImGui::Text("%.0fx", cpu->second / sh->second);
      else
        ImGui::TextColored(ui::kDim, "-");
    }
    ImGui::EndTable();
  }
}

const ViewsRegistrar reg("sum3", Views{"thread grid (naive, hoisted, shared)",
                                       [](const PictureFields& f) {
                                         draw_grid(f.n.value_or(2000),  // the lab's default n
                                                   f.block.value_or(BlockShape{16, 16, 1}));
                                       },
                                       [](const std::string& action,
                                          const std::vector<nlohmann::ordered_json>& rows) {
                                         if (action == "document_table") draw_document_table(rows);
                                       }});

}  // namespace

}  // namespace cv::labs
