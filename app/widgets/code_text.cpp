#include "widgets/code_text.h"

#include <algorithm>
#include <cmath>

namespace cv::code {

LineIndex::LineIndex(std::string_view text) : starts_{0}, size_(text.size()) {
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') starts_.push_back(i + 1);
}

int LineIndex::line_of(size_t offset) const {
  // The last start at or before the offset.
  auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
  return static_cast<int>(it - starts_.begin());
}

size_t LineIndex::start(int line) const {
  return starts_[std::clamp(line, 1, count()) - 1];
}

size_t LineIndex::end(int line) const {
  line = std::clamp(line, 1, count());
  return line < count() ? starts_[line] - 1 : size_;
}

int gutter_digits(int line_count) {
  int d = 1;
  for (int n = std::max(line_count, 1); n >= 10; n /= 10) ++d;
  return std::max(d, 3);
}

namespace {
char fold(char c, bool match_case) {
  return !match_case && c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}
}  // namespace

std::vector<size_t> find_all(std::string_view text, std::string_view needle, bool match_case) {
  std::vector<size_t> out;
  if (needle.empty() || needle.size() > text.size()) return out;
  const auto eq = [match_case](char a, char b) { return fold(a, match_case) == fold(b, match_case); };
  auto it = text.begin();
  while (true) {
    it = std::search(it, text.end(), needle.begin(), needle.end(), eq);
    if (it == text.end()) break;
    out.push_back(static_cast<size_t>(it - text.begin()));
    it += static_cast<std::ptrdiff_t>(needle.size());
  }
  return out;
}

int next_match(const std::vector<size_t>& matches, size_t from, bool forward, bool inclusive) {
  if (matches.empty()) return -1;
  const int n = static_cast<int>(matches.size());
  if (forward) {
    auto it = inclusive ? std::lower_bound(matches.begin(), matches.end(), from)
                        : std::upper_bound(matches.begin(), matches.end(), from);
    const int i = static_cast<int>(it - matches.begin());
    return i == n ? 0 : i;
  }
  auto it = std::lower_bound(matches.begin(), matches.end(), from);
  const int i = static_cast<int>(it - matches.begin()) - 1;
  return i < 0 ? n - 1 : i;
}

std::string indent_after_newline(std::string_view text, size_t newline) {
  if (newline == 0 || newline >= text.size()) return {};
  const size_t prev = text.rfind('\n', newline - 1);
  const size_t start = prev == std::string_view::npos ? 0 : prev + 1;
  size_t end = start;
  while (end < newline && (text[end] == ' ' || text[end] == '\t')) ++end;
  std::string indent(text.substr(start, end - start));
  size_t last = newline;
  while (last > start && (text[last - 1] == ' ' || text[last - 1] == '\t' || text[last - 1] == '\r'))
    --last;
  if (last > start && text[last - 1] == '{') indent += "  ";
  return indent;
}

std::string ascii_quotes(std::string_view m) {
  std::string out;
  out.reserve(m.size());
  for (size_t i = 0; i < m.size(); ++i) {
    // U+2018..U+201D are E2 80 98..9D in UTF-8.
    if (i + 2 < m.size() && static_cast<unsigned char>(m[i]) == 0xE2 &&
        static_cast<unsigned char>(m[i + 1]) == 0x80) {
      const unsigned char c = static_cast<unsigned char>(m[i + 2]);
      if (c >= 0x98 && c <= 0x9D) {
        out += c <= 0x9B ? '\'' : '"';
        i += 2;
        continue;
      }
    }
    out += m[i];
  }
  return out;
}

const char* to_string(Severity s) {
  switch (s) {
    case Severity::Note:
      return "note";
    case Severity::Warning:
      return "warning";
    case Severity::Error:
      return "error";
  }
  return "?";
}

std::map<int, LineMarks> marks_by_line(const std::vector<Mark>& marks, int line_count) {
  std::map<int, LineMarks> out;
  for (int i = 0; i < static_cast<int>(marks.size()); ++i) {
    const int line = std::clamp(marks[i].line, 1, std::max(line_count, 1));
    LineMarks& lm = out[line];
    if (lm.marks.empty() || marks[i].severity > lm.worst) lm.worst = marks[i].severity;
    lm.marks.push_back(i);
  }
  return out;
}

LineRange visible_lines(float scroll_y, float view_h, float line_h, int line_count) {
  const int n = std::max(line_count, 1);
  if (line_h <= 0) return {1, n};
  const int first = static_cast<int>(std::floor(std::max(scroll_y, 0.f) / line_h)) + 1;
  const int last = static_cast<int>(std::ceil((std::max(scroll_y, 0.f) + view_h) / line_h));
  return {std::clamp(first, 1, n), std::clamp(last, 1, n)};
}

float scroll_to_show(int line, float scroll_y, float view_h, float line_h, int context) {
  const float top = (line - 1) * line_h, bottom = line * line_h;
  const float margin = std::min(context * line_h, std::max(0.f, (view_h - line_h) / 2));
  if (top - margin < scroll_y) return std::max(0.f, top - margin);
  if (bottom + margin > scroll_y + view_h) return bottom + margin - view_h;
  return scroll_y;
}

}  // namespace cv::code
