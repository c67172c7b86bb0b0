#pragma once
// The Markdown a lesson's text uses, and no more: headings (#, ##, ###),
// paragraphs, **strong**, *emphasis*, `inline code`, bullet and numbered
// lists, fenced code blocks and blank lines. parse_markdown is pure (tests);
// draw_markdown renders it with ImGui in the current window, wrapping at its
// edge (ImGui 1.86 has one font: emphasis is shown in colour).
#include <string>
#include <vector>

namespace cv::lessons {

struct Span {
  std::string text;
  bool strong = false, em = false, code = false;
};

struct Block {
  enum class Kind { Heading, Paragraph, Bullet, Numbered, Code } kind = Kind::Paragraph;
  int level = 0;       // Heading: 1..3
  std::string number;  // Numbered: "1."
  std::vector<Span> spans;
  std::vector<std::string> code;  // Code: its lines
};

std::vector<Span> parse_inline(const std::string& text);
std::vector<Block> parse_markdown(const std::string& text);

// Inside an ImGui window.
void draw_markdown(const std::vector<Block>& blocks);

}  // namespace cv::lessons
