// draw_markdown: the lesson text with ImGui, words wrapped at the window's edge.
#include <imgui.h>

#include <algorithm>

#include "lessons/markdown.h"
#include "widgets/widgets.h"

namespace cv::lessons {

namespace {

const ImVec4 kHeading{0.55f, 0.80f, 1.00f, 1.f};
const ImVec4 kStrong{1.00f, 0.85f, 0.35f, 1.f};
const ImVec4 kEm{0.75f, 0.95f, 0.75f, 1.f};
const ImVec4 kCode{0.95f, 0.70f, 0.95f, 1.f};

ImVec4 colour_of(const Span& s, bool heading) {
  if (s.code) return kCode;
  if (heading) return kHeading;
  if (s.strong) return kStrong;
  if (s.em) return kEm;
  return ImGui::GetStyleColorVec4(ImGuiCol_Text);
}

// Words of the spans, each drawn where it fits; a line that is full breaks
// back to `indent_x`. Inline code gets a faint box behind it.
void draw_spans(const std::vector<Span>& spans, bool heading) {
  const float indent_x = ImGui::GetCursorPosX();
  // The column's edge (a table cell or the window): where the cursor is plus what is left.
  // (the window's content region keeps a full padding from its edge, as
  // layout_problems() checks; the work area alone would allow half of it).
  const float right = std::min(indent_x + ImGui::GetContentRegionAvail().x,
                               ImGui::GetWindowContentRegionMax().x);
  const float space = ImGui::CalcTextSize(" ").x;
  bool first = true;
  bool space_before = false;  // the text so far ended with a space
  for (const Span& s : spans) {
    const ImVec4 colour = colour_of(s, heading);
    size_t i = 0;
    while (i < s.text.size()) {
      bool lead_space = space_before || s.text[i] == ' ';
      space_before = false;
      while (i < s.text.size() && s.text[i] == ' ') ++i;
      size_t j = s.text.find(' ', i);
      if (j == std::string::npos) j = s.text.size();
      const std::string word = s.text.substr(i, j - i);
      i = j;
      if (word.empty()) {
        space_before = lead_space;
        continue;
      }
      const float w = ImGui::CalcTextSize(word.c_str()).x;
      if (!first) {
        // Decided before SameLine: a SameLine undone by NewLine would still
        // have stretched the window's content past the edge.
        const float gap = lead_space ? space : 0;
        const float end = ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + gap + w;
        if (end > right)
          ImGui::SetCursorPosX(indent_x);  // the next line
        else
          ImGui::SameLine(0, gap);
      }
      first = false;
      if (s.code) {
        const ImVec2 p = ImGui::GetCursorScreenPos();
        const ImVec2 sz = ImGui::CalcTextSize(word.c_str());
        ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + sz.x, p.y + sz.y),
                                                  IM_COL32(255, 255, 255, 28), 2.f);
      }
      ImGui::PushStyleColor(ImGuiCol_Text, colour);
      ImGui::TextUnformatted(word.c_str());
      ImGui::PopStyleColor();
    }
    if (!s.text.empty() && s.text.back() == ' ') space_before = true;
  }
  if (first) ImGui::NewLine();
}

void draw_code(const std::vector<std::string>& lines) {
  const float pad = ImGui::GetStyle().FramePadding.x;
  const float wrap = ImGui::GetContentRegionAvail().x - 2 * pad;
  float h = 0;
  for (const auto& l : lines)
    h += ImGui::CalcTextSize(l.empty() ? " " : l.c_str(), nullptr, false, wrap).y;
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::GetWindowDrawList()->AddRectFilled(
      p, ImVec2(p.x + wrap + 2 * pad, p.y + h + 2 * pad), IM_COL32(255, 255, 255, 22), 3.f);
  ImGui::SetCursorScreenPos(ImVec2(p.x + pad, p.y + pad));
  ImGui::PushStyleColor(ImGuiCol_Text, kCode);
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, 0));
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
  for (const auto& l : lines) ImGui::TextUnformatted(l.empty() ? " " : l.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleVar();
  ImGui::PopStyleColor();
  ImGui::SetCursorScreenPos(ImVec2(p.x, p.y + h + 2 * pad));
  ImGui::Dummy(ImVec2(0, ImGui::GetStyle().ItemSpacing.y));
}

}  // namespace

void draw_markdown(const std::vector<Block>& blocks) {
  for (const Block& b : blocks) {
    switch (b.kind) {
      case Block::Kind::Heading: {
        // One font in ImGui 1.86: headings are scaled up a little and coloured.
        ImGui::SetWindowFontScale(b.level == 1 ? 1.3f : b.level == 2 ? 1.15f : 1.05f);
        draw_spans(b.spans, true);
        ImGui::SetWindowFontScale(1.f);
        break;
      }
      case Block::Kind::Paragraph:
        draw_spans(b.spans, false);
        ImGui::Spacing();
        break;
      case Block::Kind::Bullet:
      case Block::Kind::Numbered: {
        const float indent = ImGui::GetFontSize() * (1.0f + b.level);
        ImGui::Indent(indent);
        if (b.kind == Block::Kind::Bullet) {
          ImGui::Bullet();
        } else {
          ImGui::TextUnformatted(b.number.c_str());
        }
        ImGui::SameLine();
        draw_spans(b.spans, false);
        ImGui::Unindent(indent);
        break;
      }
      case Block::Kind::Code:
        draw_code(b.code);
        break;
    }
  }
}

}  // namespace cv::lessons
