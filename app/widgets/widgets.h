#pragma once
// Small ImGui helpers every panel uses (scenes, labs, tuning, ui): colours,
// section headers, tooltips, SI numbers. The lowest UI layer: it knows ImGui
// and nothing of the app.
#include <imgui.h>

#include <string>

namespace cv::ui {

extern const ImVec4 kWarn, kDim, kGood, kBad;

// The theme the style was built with (ui/presentation sets it with the style),
// for widgets that draw in colours of their own (the code editor's palette).
enum class Theme { Dark, HighContrast };
void set_theme(Theme t);
Theme theme();
void section(const char* title);  // ImGui 1.86 has no SeparatorText
void tooltip(const char* text);   // for the item just drawn
std::string si(double v);         // 1.23e9 -> "1.23 G"
// Before a button (or text) that may go on the same line: SameLine when a
// button labelled `next` still fits in the window, else a new line. Rows of
// buttons then wrap instead of running past the panel at large UI scales.
void same_line_if_fits(const char* next);
// Wrapped text in a colour (warnings and notes that must never be cut off).
void wrapped(const ImVec4& colour, const std::string& text);
// ImGui::TextColored that wraps at the panel's edge.
void text_wrapped(const ImVec4& colour, const char* fmt, ...) IM_FMTARGS(2);

}  // namespace cv::ui
