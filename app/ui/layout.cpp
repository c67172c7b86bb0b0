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

namespace {

// Presentation mode: the scene keeps everything left of one column; the
// column holds, top to bottom, the side panels folded to their title bars
// (side by side) or unfolded, the class panel, the lesson and the tab strip;
// another tool spans the bottom as usual, the column above it. An unfolded
// scene panel is in use: it takes its usual place on the left.
LayoutPlan plan_present(const LayoutInput& in) {
  const float m = in.margin;
  LayoutPlan p;
  const float col_w = std::clamp(kPresentColumnShare * in.width, 0.f, std::max(0.f, in.width - 2 * m));
  const float col_x = in.width - m - col_w;
  const float strip_h = in.column_strip_h > 0 ? in.column_strip_h : in.strip_h;
  // A tool other than the lesson is in use: it spans the bottom as usual
  // (the width it was made for), the column above it.
  float column_bottom = in.height - m;
  p.tool_room = std::max(0.f, (in.height - 3 * m) / 2);
  if (in.tool_open && !in.tool_beside) {
    const float h = in.tool_wanted_h > 0 ? std::min(in.tool_wanted_h, p.tool_room) : p.tool_room;
    p.tool = {m, in.height - m - h, std::max(0.f, in.width - 2 * m), h};
    column_bottom = p.tool.y - m;
  }
  p.strip = {col_x, column_bottom - strip_h, col_w, strip_h};
  const float bottom = p.strip.y - m;
  float y = m;
  auto room = [&] { return std::max(0.f, bottom - y); };
  const float half_col = std::max(0.f, (col_w - m) / 2);
  if (in.control_collapsed && in.timing_collapsed) {
    p.control = {col_x, y, half_col, in.title_h};
    p.timing = {col_x + half_col + m, y, half_col, in.title_h};
    y += in.title_h + m;
  } else {
    if (in.control_collapsed) {
      p.control = {col_x, y, col_w, in.title_h};
      y += in.title_h + m;
    } else {
      const float h = std::max(0.f, column_bottom - m);
      p.control = {m, m, std::min(28 * in.font, std::max(0.f, col_x - 2 * m)),
                   in.control_wanted_h > 0 ? std::min(in.control_wanted_h, h) : h};
    }
    if (in.timing_collapsed) {
      p.timing = {col_x, y, col_w, in.title_h};
      y += in.title_h + m;
    } else {
      const float h = in.timing_wanted_h > 0 ? std::min(in.timing_wanted_h, room() / 2) : room() / 2;
      p.timing = {col_x, y, col_w, h};
      y += h + m;
    }
  }
  if (in.class_open) {
    const float h = in.class_wanted_h > 0 ? std::min(in.class_wanted_h, room() * 0.6f) : room() * 0.6f;
    p.class_panel = {col_x, y, col_w, h};
    y += h + m;
  }
  std::vector<Rect> panels{p.control, p.timing, p.strip};
  if (in.class_open) panels.push_back(p.class_panel);
  if (in.tool_beside) {
    p.tool_room = room();
    if (in.tool_open) p.tool = {col_x, y, col_w, room()};
  }
  if (in.tool_open) panels.push_back(p.tool);
  p.scene = free_rect(in.width, in.height, panels);
  return p;
}

}  // namespace

LayoutPlan plan_layout(const LayoutInput& in) {
  if (in.present) return plan_present(in);
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
  float timing_y = m;
  if (in.class_open) {  // at the top of the right column, the timing panel below it
    const float h = in.class_wanted_h > 0 ? std::min(in.class_wanted_h, column_h / 2) : column_h / 2;
    p.class_panel = {in.width - m - right_w, m, right_w, h};
    timing_y += h + m;
  }
  const float timing_room = std::max(0.f, bottom - timing_y);
  p.timing = {in.width - m - right_w, timing_y, right_w,
              in.timing_wanted_h > 0 ? std::min(in.timing_wanted_h, timing_room) : timing_room};
  std::vector<Rect> panels{p.control, p.timing, p.strip};
  if (in.class_open) panels.push_back(p.class_panel);
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

// Presentation mode draws the tabs smaller: the column beside the scene has
// room for the lesson, not for four rows of tabs.
constexpr float kPresentTabScale = 0.75f;

float tab_width(const std::string& name, float scale) {
  const ImGuiStyle& st = ImGui::GetStyle();
  return ImGui::CalcTextSize(name.c_str()).x * scale + 2 * st.FramePadding.x;
}
}  // namespace

// Tabs flow left to right and wrap to a new row where the strip ends.
std::vector<std::vector<int>> Layout::strip_rows(float width) const {
  const ImGuiStyle& st = ImGui::GetStyle();
  const float inner = width - 2 * st.WindowPadding.x;
  std::vector<std::vector<int>> rows(1);
  float x = 0;
  const float scale = present_ ? kPresentTabScale : 1.f;
  for (int i = 0; i < static_cast<int>(tool_names().size()); ++i) {
    const float w = tab_width(tool_names()[i], scale);
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
  in.class_open = class_on_;
  in.class_wanted_h = wanted_h_["class"];
  // Entering presentation mode folds the side panels (not in use); leaving unfolds them.
  fold_sides_ = present_ != was_present_;
  if (fold_sides_) collapsed_["control"] = collapsed_["timing"] = present_;
  was_present_ = present_;
  in.present = present_;
  if (present_) {
    in.control_collapsed = collapsed_["control"];
    in.timing_collapsed = collapsed_["timing"];
    in.tool_beside = open_ == tool_name(Tool::Lesson) || open_ == tool_name(Tool::Challenge);
    in.title_h = ImGui::GetFrameHeight();
    const float col_w = kPresentColumnShare * in.width;
    const float col_rows = static_cast<float>(strip_rows(col_w).size());
    const float tab_h = ImGui::GetFontSize() * kPresentTabScale + 2 * st.FramePadding.y;
    in.column_strip_h = col_rows * tab_h + (col_rows - 1) * st.ItemSpacing.y + 2 * st.WindowPadding.y;
  }
  plan_ = plan_layout(in);
  planned_w_ = in.width;
  planned_h_ = in.height;
}

void Layout::place_control() const {
  if (fold_sides_) ImGui::SetNextWindowCollapsed(present_, ImGuiCond_Always);
  place(plan_.control);
}
void Layout::place_timing() const {
  if (fold_sides_) ImGui::SetNextWindowCollapsed(present_, ImGuiCond_Always);
  place(plan_.timing);
}
int Layout::side_flags() const {
  // In presentation mode a side panel folds to its title bar; a click unfolds it.
  return present_ ? kFixed & ~ImGuiWindowFlags_NoCollapse : kFixed;
}

bool Layout::begin_class_panel(const char* title) {
  if (!class_on_ || plan_.class_panel.w <= 0) return false;
  place(plan_.class_panel);
  if (!ImGui::Begin(title, nullptr, kFixed | ImGuiWindowFlags_NoScrollbar)) {
    ImGui::End();
    return false;
  }
  return true;
}

void Layout::end_class_panel() {
  end_panel("class");
  ImGui::End();
}

void Layout::end_panel(const char* name) {
  // A folded panel keeps the height it wants unfolded.
  collapsed_[name] = ImGui::IsWindowCollapsed();
  if (collapsed_[name]) return;
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
  const auto rows = strip_rows(plan_.strip.w);  // measured at the unscaled font
  ImGui::Begin("tools", nullptr,
               kFixed | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
  if (present_) ImGui::SetWindowFontScale(kPresentTabScale);
  for (const auto& row : rows) {
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
