#include "insight/view_common.h"

#include <algorithm>
#include <cmath>

#include "widgets/widgets.h"
#include "ui/presentation.h"

namespace cv::insight_ui {

static ImU32 hsv(float h, float s, float v, float a) {
  float r, g, b;
  ImGui::ColorConvertHSVtoRGB(h, s, v, r, g, b);
  return ImGui::GetColorU32(ImVec4(r, g, b, a));
}

ImU32 id_colour(uint32_t id, float alpha) {
  const double h = std::fmod(static_cast<double>(id) * 0.6180339887, 1.0);
  return hsv(static_cast<float>(h), 0.75f, 1.f - 0.22f * static_cast<float>(id % 3u), alpha);
}

ImU32 lane_colour(unsigned lane, float alpha) {
  return hsv(static_cast<float>(lane % 32u) / 32.f, 0.85f, 1.f, alpha);
}

void needs_gpu(const char* what) {
  ImGui::PushStyleColor(ImGuiCol_Text, ui::kWarn);
  ImGui::TextWrapped("CPU backend: %s needs a GPU. %s", what,
                     device_info().unavailable_reason.c_str());
  ImGui::PopStyleColor();
}

void notice(const char* text) {
  // Open by default: in class the text is the point of the view.
  ImGui::PushID(text);
  if (ImGui::CollapsingHeader("what to notice", ImGuiTreeNodeFlags_DefaultOpen)) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui::kDim);
    ImGui::TextWrapped("%s", text);
    ImGui::PopStyleColor();
  }
  ImGui::PopID();
}

}  // namespace cv::insight_ui
