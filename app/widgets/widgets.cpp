#include "widgets/widgets.h"

#include <cmath>
#include <cstdarg>
#include <cstdio>

namespace cv::ui {

const ImVec4 kWarn(1.f, 0.45f, 0.35f, 1.f);
const ImVec4 kDim(0.65f, 0.7f, 0.8f, 1.f);
const ImVec4 kGood(0.4f, 0.9f, 0.45f, 1.f);
const ImVec4 kBad(1.f, 0.35f, 0.3f, 1.f);

namespace {
Theme g_theme = Theme::Dark;  // one ImGui context, one style per process
}  // namespace
void set_theme(Theme t) { g_theme = t; }
Theme theme() { return g_theme; }

void section(const char* title) {
  ImGui::Spacing();
  ImGui::Separator();
  text_wrapped(kDim, "%s", title);
}

void tooltip(const char* text) {
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}

std::string si(double v) {
  const char* units[] = {"", " K", " M", " G", " T", " P"};
  int u = 0;
  double a = std::fabs(v);
  while (a >= 1000.0 && u < 5) {
    a /= 1000.0;
    v /= 1000.0;
    ++u;
  }
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3g%s", v, units[u]);
  return buf;
}

void same_line_if_fits(const char* next) {
  const ImGuiStyle& st = ImGui::GetStyle();
  const float w = ImGui::CalcTextSize(next, nullptr, true).x + 2 * st.FramePadding.x;
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x + st.ItemSpacing.x + w <= right) ImGui::SameLine();
}

void text_wrapped(const ImVec4& colour, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  ImGui::TextWrappedV(fmt, args);
  ImGui::PopStyleColor();
  va_end(args);
}

void wrapped(const ImVec4& colour, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  ImGui::TextWrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}

}  // namespace cv::ui
