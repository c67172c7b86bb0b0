#pragma once
// The code editor's arithmetic, apart from ImGui so tests can check it: where
// lines start and which line a byte is on, the gutter's width, the matches of
// a search and which one comes next, how diagnostics land on lines, and which
// lines a scrolled view shows. Lines are 1-based, like a compiler's messages.
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace cv::code {

class LineIndex {
 public:
  LineIndex() : starts_{0} {}
  explicit LineIndex(std::string_view text);
  int count() const { return static_cast<int>(starts_.size()); }  // an empty text has one line
  // The line holding byte `offset` (a '\n' belongs to the line it ends); an
  // offset at or past the end is on the last line.
  int line_of(size_t offset) const;
  // Where `line` starts; lines outside 1..count() are taken as the nearest one.
  size_t start(int line) const;
  // Where `line` ends (its '\n', or the end of the text): its length is end - start.
  size_t end(int line) const;

 private:
  std::vector<size_t> starts_;
  size_t size_ = 0;
};

// Characters the gutter's numbers need: the widest line number, at least 3.
int gutter_digits(int line_count);

// Every occurrence of `needle` (non-overlapping, left to right); none for an
// empty needle. Without match_case, ASCII letters compare case-insensitively.
std::vector<size_t> find_all(std::string_view text, std::string_view needle, bool match_case);
// The match to go to from byte `from`: forward, the first starting after
// `from` (at it when `inclusive`); backward, the last starting before it;
// wrapping around the ends. -1 when there are no matches.
int next_match(const std::vector<size_t>& matches, size_t from, bool forward,
               bool inclusive = false);

// The indentation for a line started by the '\n' at `newline`: the previous
// line's leading spaces and tabs, two spaces more when it ends with '{'.
std::string indent_after_newline(std::string_view text, size_t newline);

// Compilers quote with typographic marks under a UTF-8 locale (GCC's
// U+2018/U+2019, U+201C/U+201D); the UI font has ASCII only, so they become ' and ".
std::string ascii_quotes(std::string_view message);

enum class Severity { Note, Warning, Error };
const char* to_string(Severity s);

// A compiler message at a line of the text.
struct Mark {
  int line = 1;
  Severity severity = Severity::Error;
  std::string message;
};

// The marks of one line: the worst severity among them and their indices into
// the list, in the list's order.
struct LineMarks {
  Severity worst = Severity::Note;
  std::vector<int> marks;
};
// Lines that carry marks. A mark outside 1..line_count (a compiler's "end of
// file" line, a stale list after an edit) lands on the nearest line so it is
// still seen.
std::map<int, LineMarks> marks_by_line(const std::vector<Mark>& marks, int line_count);

// The lines a view shows when scrolled to `scroll_y` (pixels from the first
// line's top, lines `line_h` tall), 1-based and inclusive, within 1..line_count.
struct LineRange {
  int first = 1, last = 1;
};
LineRange visible_lines(float scroll_y, float view_h, float line_h, int line_count);
// The scroll that brings `line` into view with `context` lines around it;
// `scroll_y` when it is already in view.
float scroll_to_show(int line, float scroll_y, float view_h, float line_h, int context = 2);

}  // namespace cv::code
