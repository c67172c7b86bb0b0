#pragma once
// The editor's editing commands as pure functions of the text and the
// selection, so tests can check them without ImGui: indent and unindent the
// selected lines (Tab, Shift+Tab), toggle // comments on them (Ctrl+/), the
// indentation Enter inserts, and the bracket matching the one at the cursor.
// Offsets are bytes; a selection is [begin, end) with begin <= end (equal: a
// cursor). The lines a selection touches are those from begin's to end's,
// less end's line when the selection ends at its start (whole lines selected
// with the mouse end there).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "widgets/code_syntax.h"

namespace cv::code {

// The indentation one level adds (the shipped kernels indent by two spaces).
inline constexpr std::string_view kIndentUnit = "  ";

// A text after a command and where its selection went.
struct Edited {
  std::string text;
  size_t begin = 0, end = 0;
};

// Tab with a selection: one level more on every touched line that is not empty.
Edited indent_lines(std::string_view text, size_t begin, size_t end);
// Tab without one: spaces up to the next indentation stop at the cursor.
Edited indent_at_cursor(std::string_view text, size_t cursor);
// Shift+Tab: one level less (a tab, or up to two spaces) on every touched line.
Edited unindent_lines(std::string_view text, size_t begin, size_t end);
// Ctrl+/: when every touched line that has text starts with //, those marks
// (and one space after each) go; otherwise each such line gets "// " at the
// smallest indentation among them, so the block stays aligned. A blank line
// alone gets one at its indentation.
Edited toggle_comment(std::string_view text, size_t begin, size_t end);

// What Enter inserts after the '\n' at `newline` (just typed): the previous
// line's indentation, one level more after a '{'. Between '{' and '}' (Enter
// in "{}") the '}' goes to a line of its own at the outer level; `cursor` is
// where the cursor goes within `insert`.
struct AutoIndent {
  std::string insert;
  size_t cursor = 0;
};
AutoIndent auto_indent(std::string_view text, size_t newline);

// The bracket next to the cursor (the one before it first, then the one after)
// and its partner; brackets in comments, strings and characters don't count.
// `match` is empty when the bracket has no partner (a '(' never closed).
struct BracketMatch {
  size_t at = 0;
  std::optional<size_t> match;
};
std::optional<BracketMatch> match_bracket(std::string_view text, const std::vector<Run>& runs,
                                          size_t cursor);

// The first byte where `a` and `b` differ (the shorter one's size when one is
// a prefix of the other): where the cursor goes after undo.
size_t first_difference(std::string_view a, std::string_view b);

}  // namespace cv::code
