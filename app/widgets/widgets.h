#pragma once
// Small ImGui helpers every panel uses (scenes, labs, tuning, ui): colours,
// section headers, tooltips, SI numbers. The lowest UI layer: it knows ImGui
// and nothing of the app.
#include <imgui.h>

#include <string>

namespace cv::ui {

extern const ImVec4 kWarn, kDim, kGood, kBad;
void section(const char* title);  // ImGui 1.86 has no SeparatorText
void tooltip(const char* text);   // for the item just drawn
std::string si(double v);         // 1.23e9 -> "1.23 G"
// Wrapped text in a colour (warnings and notes that must never be cut off).
void wrapped(const ImVec4& colour, const std::string& text);

}  // namespace cv::ui
