#include "ui/layout.h"

#include <imgui.h>
#include <imgui_internal.h>  // the window list, for layout_problems()

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace cv::ui {

bool Rect::overlaps(const Rect& o) const {
  const float eps = 0.5f;  // touching edges are not an overlap
  return x + w > o.x + eps && o.x + o.w > x + eps && y + h > o.y + eps && o.y + o.h > y + eps;
}

LayoutPlan plan_layout(const LayoutInput& in) {
  const float m = in.margin;
  const float half = std::max(0.f, (in.width - 3 * m) / 2);
  LayoutPlan p;
  p.strip = {m, in.height - m - in.strip_h, in.width - 2 * m, in.strip_h};
  float bottom = p.strip.y - m;  // what the columns and the tool may use, top to here
  const float room = p.tool_room = std::max(0.f, (bottom - m) / 2);
  if (in.tool_open) {
    const float h = in.tool_wanted_h > 0 ? std::min(in.tool_wanted_h, room) : room;
    p.tool = {m, bottom - h, in.width - 2 * m, h};
    bottom = p.tool.y - m;
  }
  const float column_h = std::max(0.f, bottom - m);
  auto fit = [&](float wanted) { return wanted > 0 ? std::min(wanted, column_h) : column_h; };
  const float left_w = std::min(28 * in.font, half), right_w = std::min(24 * in.font, half);
  p.control = {m, m, left_w, fit(in.control_wanted_h)};
  p.timing = {in.width - m - right_w, m, right_w, fit(in.timing_wanted_h)};
  std::vector<Rect> panels{p.control, p.timing, p.strip};
  if (in.tool_open) panels.push_back(p.tool);
  p.scene = free_rect(in.width, in.height, panels);
  return p;
}

Rect free_rect(float width, float height, const std::vector<Rect>& panels) {
  // The best rectangle has each side on the display's edge or a panel's edge:
  // try every pair of those x and y edges (a few hundred rectangles).
  std::vector<float> xs{0, width}, ys{0, height};
  for (const Rect& r : panels) {
    xs.insert(xs.end(), {r.x, r.x + r.w});
    ys.insert(ys.end(), {r.y, r.y + r.h});
  }
  auto clean = [](std::vector<float>& v, float hi) {
    for (float& f : v) f = std::clamp(f, 0.f, hi);
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  };
  clean(xs, width);
  clean(ys, height);
  Rect best{0, 0, 0, 0};
  auto better = [](const Rect& a, const Rect& b) {
    const float sa = std::min(a.w, a.h), sb = std::min(b.w, b.h);
    return sa > sb + 0.5f || (sa > sb - 0.5f && a.w * a.h > b.w * b.h);
  };
  for (size_t x0 = 0; x0 < xs.size(); ++x0)
    for (size_t x1 = x0 + 1; x1 < xs.size(); ++x1)
      for (size_t y0 = 0; y0 < ys.size(); ++y0)
        for (size_t y1 = y0 + 1; y1 < ys.size(); ++y1) {
          const Rect r{xs[x0], ys[y0], xs[x1] - xs[x0], ys[y1] - ys[y0]};
          if (!better(r, best)) continue;
          if (std::none_of(panels.begin(), panels.end(),
                           [&](const Rect& p) { return p.w > 0 && p.h > 0 && p.overlaps(r); }))
            best = r;
        }
  if (std::min(best.w, best.h) >= 0.25f * std::min(width, height)) return best;
  float bottom = height;  // above every panel that spans the width
  for (const Rect& r : panels)
    if (r.w >= 0.9f * width && r.h > 0) bottom = std::min(bottom, r.y);
  return {0, 0, width, std::max(bottom, 0.f)};
}

const std::vector<std::string>& Layout::tool_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const ToolName& t : kTools) v.emplace_back(t.name);
    return v;
  }();
  return names;
}

namespace {
constexpr int kFixed = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                       ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings;

void place(const Rect& r) {
  ImGui::SetNextWindowPos(ImVec2(r.x, r.y), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(r.w, r.h), ImGuiCond_Always);
}

float tab_width(const std::string& name) {
  const ImGuiStyle& st = ImGui::GetStyle();
  return ImGui::CalcTextSize(name.c_str()).x + 2 * st.FramePadding.x;
}
}  // namespace

// Tabs flow left to right and wrap to a new row where the strip ends.
std::vector<std::vector<int>> Layout::strip_rows(float width) const {
  const ImGuiStyle& st = ImGui::GetStyle();
  const float inner = width - 2 * st.WindowPadding.x;
  std::vector<std::vector<int>> rows(1);
  float x = 0;
  for (int i = 0; i < static_cast<int>(tool_names().size()); ++i) {
    const float w = tab_width(tool_names()[i]);
    if (!rows.back().empty() && x + st.ItemSpacing.x + w > inner) rows.emplace_back(), x = 0;
    x += (rows.back().empty() ? 0 : st.ItemSpacing.x) + w;
    rows.back().push_back(i);
  }
  return rows;
}

void Layout::begin_frame() {
  const ImGuiIO& io = ImGui::GetIO();
  const ImGuiStyle& st = ImGui::GetStyle();
  LayoutInput in;
  in.width = io.DisplaySize.x;
  in.height = io.DisplaySize.y;
  in.font = ImGui::GetFontSize();
  in.margin = std::max(4.f, 0.6f * in.font);
  const float rows = static_cast<float>(strip_rows(in.width - 2 * in.margin).size());
  in.strip_h =
      rows * ImGui::GetFrameHeight() + (rows - 1) * st.ItemSpacing.y + 2 * st.WindowPadding.y;
  in.tool_open = !open_.empty();
  in.tool_wanted_h = open_.empty() ? 0 : wanted_h_[open_];
  in.control_wanted_h = wanted_h_["control"];
  in.timing_wanted_h = wanted_h_["timing"];
  plan_ = plan_layout(in);
  planned_w_ = in.width;
  planned_h_ = in.height;
}

void Layout::place_control() const {
  place(plan_.control);
}
void Layout::place_timing() const {
  place(plan_.timing);
}
int Layout::side_flags() const {
  return kFixed;
}

void Layout::end_panel(const char* name) {
  // The content's height plus the title bar and padding: next frame's wish.
  const ImGuiStyle& st = ImGui::GetStyle();
  // Rounded up with a pixel to spare: a size that exactly fits can flip ImGui's
  // scrollbar on and off from one frame to the next.
  wanted_h_[name] = std::ceil(ImGui::GetCursorPosY() - st.ItemSpacing.y + st.WindowPadding.y) + 2;
}

bool Layout::begin_tool(const std::string& tool, const char* title) {
  if (open_ != tool) return false;
  place(plan_.tool);
  // Always a scrollbar: tools fill their width (tables, progress bars), and a
  // scrollbar that came and went with their height would change that width
  // from one frame to the next.
  if (!ImGui::Begin(title, nullptr, kFixed | ImGuiWindowFlags_AlwaysVerticalScrollbar)) {
    ImGui::End();
    return false;
  }
  return true;
}

void Layout::end_tool() {
  end_panel(open_.c_str());
  ImGui::End();
}

void Layout::draw_strip() {
  place(plan_.strip);
  ImGui::Begin("tools", nullptr,
               kFixed | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
  for (const auto& row : strip_rows(plan_.strip.w)) {
    for (size_t k = 0; k < row.size(); ++k) {
      const std::string& name = tool_names()[row[k]];
      if (k) ImGui::SameLine();
      const bool on = open_ == name;
      if (on)
        ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
      if (ImGui::Button(name.c_str())) open_ = on ? "" : name;
      if (on) ImGui::PopStyleColor();
    }
  }
  ImGui::End();
}

std::vector<std::string> layout_problems() {
  const ImGuiContext& g = *ImGui::GetCurrentContext();
  const ImVec2 display = g.IO.DisplaySize;
  struct Panel {
    std::string name;
    Rect r;
  };
  std::vector<Panel> panels;
  std::vector<std::string> out;
  char buf[256];
  for (ImGuiWindow* w : g.Windows) {
    if (!w->WasActive || w->Hidden ||
        (w->Flags &
         (ImGuiWindowFlags_ChildWindow | ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_Popup)))
      continue;
    if (std::strncmp(w->Name, "Debug##", 7) == 0) continue;  // ImGui's implicit window, empty
    const Rect r{w->Pos.x, w->Pos.y, w->Size.x, w->Size.y};
    if (r.x < -0.5f || r.y < -0.5f || r.x + r.w > display.x + 0.5f ||
        r.y + r.h > display.y + 0.5f) {
      std::snprintf(buf, sizeof buf, "'%s' reaches past the display", w->Name);
      out.push_back(buf);
    }
    const float inner = w->Size.x - 2 * w->WindowPadding.x - w->ScrollbarSizes.x;
    if (w->ContentSize.x > inner + 0.5f) {
      std::snprintf(buf, sizeof buf, "'%s' content %.0f px wide in %.0f px", w->Name,
                    w->ContentSize.x, inner);
      out.push_back(buf);
    }
    for (const Panel& p : panels)
      if (p.r.overlaps(r)) {
        std::snprintf(buf, sizeof buf, "'%s' overlaps '%s'", w->Name, p.name.c_str());
        out.push_back(buf);
      }
    panels.push_back({w->Name, r});
  }
  return out;
}

}  // namespace cv::ui
