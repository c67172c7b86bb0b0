// The kernel editor's pure logic (widgets/code_text.h, widgets/text_history.h):
// lines from byte offsets, the gutter, find, diagnostics on lines, scrolling,
// and undo across replacements.
#include <gtest/gtest.h>

#include "widgets/code_text.h"
#include "widgets/text_history.h"

using namespace cv::code;

TEST(CodeText, LineIndexMapsOffsetsToLines) {
  const std::string t = "ab\n\ncd\nlast";
  LineIndex ix(t);
  ASSERT_EQ(ix.count(), 4);
  EXPECT_EQ(ix.line_of(0), 1);
  EXPECT_EQ(ix.line_of(2), 1);  // the '\n' ends line 1
  EXPECT_EQ(ix.line_of(3), 2);  // the empty line
  EXPECT_EQ(ix.line_of(4), 3);
  EXPECT_EQ(ix.line_of(7), 4);
  EXPECT_EQ(ix.line_of(t.size()), 4);
  EXPECT_EQ(ix.line_of(t.size() + 100), 4);
  EXPECT_EQ(ix.start(3), 4u);
  EXPECT_EQ(ix.end(3), 6u);
  EXPECT_EQ(t.substr(ix.start(4), ix.end(4) - ix.start(4)), "last");
  EXPECT_EQ(ix.start(2), ix.end(2));  // empty line
  EXPECT_EQ(ix.start(0), 0u);         // out of range: the nearest line
  EXPECT_EQ(ix.start(99), ix.start(4));
}

TEST(CodeText, LineIndexOfEmptyAndTrailingNewline) {
  EXPECT_EQ(LineIndex("").count(), 1);
  EXPECT_EQ(LineIndex("").end(1), 0u);
  LineIndex ix("x\n");
  EXPECT_EQ(ix.count(), 2);  // the cursor can stand on the line after the last '\n'
  EXPECT_EQ(ix.line_of(2), 2);
  EXPECT_EQ(ix.start(2), 2u);
  EXPECT_EQ(ix.end(2), 2u);
}

TEST(CodeText, GutterDigits) {
  EXPECT_EQ(gutter_digits(0), 3);
  EXPECT_EQ(gutter_digits(9), 3);
  EXPECT_EQ(gutter_digits(999), 3);
  EXPECT_EQ(gutter_digits(1000), 4);
  EXPECT_EQ(gutter_digits(123456), 6);
}

TEST(CodeText, FindAllCaseAndOverlap) {
  const std::string t = "Idx idx IDX aaaa";
  EXPECT_EQ(find_all(t, "idx", true), (std::vector<size_t>{4}));
  EXPECT_EQ(find_all(t, "idx", false), (std::vector<size_t>{0, 4, 8}));
  EXPECT_EQ(find_all(t, "aa", true), (std::vector<size_t>{12, 14}));  // not overlapping
  EXPECT_TRUE(find_all(t, "", false).empty());
  EXPECT_TRUE(find_all("ab", "abc", false).empty());
  EXPECT_TRUE(find_all(t, "zz", false).empty());
}

TEST(CodeText, NextMatchWrapsBothWays) {
  const std::vector<size_t> m{5, 10, 20};
  EXPECT_EQ(next_match(m, 0, true), 0);
  EXPECT_EQ(next_match(m, 5, true), 1);         // strictly after the current match
  EXPECT_EQ(next_match(m, 5, true, true), 0);   // or at it
  EXPECT_EQ(next_match(m, 20, true), 0);        // wraps to the first
  EXPECT_EQ(next_match(m, 10, false), 0);
  EXPECT_EQ(next_match(m, 5, false), 2);        // wraps to the last
  EXPECT_EQ(next_match(m, 100, false), 2);
  EXPECT_EQ(next_match({}, 3, true), -1);
  EXPECT_EQ(next_match({}, 3, false), -1);
}

TEST(CodeText, MarksLandOnLinesWithTheWorstSeverity) {
  const std::vector<Mark> marks{{3, Severity::Warning, "unused variable"},
                                {3, Severity::Error, "identifier \"idy\" is undefined"},
                                {7, Severity::Note, "declared here"},
                                {50, Severity::Error, "expected a \"}\""},
                                {0, Severity::Warning, "odd"}};
  const auto by = marks_by_line(marks, 10);
  ASSERT_EQ(by.size(), 4u);
  EXPECT_EQ(by.at(3).worst, Severity::Error);
  EXPECT_EQ(by.at(3).marks, (std::vector<int>{0, 1}));
  EXPECT_EQ(by.at(7).worst, Severity::Note);
  EXPECT_EQ(by.at(10).marks, (std::vector<int>{3}));  // past the end: the last line
  EXPECT_EQ(by.at(1).marks, (std::vector<int>{4}));   // before the start: the first
  EXPECT_TRUE(marks_by_line({}, 10).empty());
}

TEST(CodeText, VisibleLinesAndScrollToShow) {
  // 10 px lines, a 45 px view: scrolled to 25 shows lines 3..7.
  const LineRange r = visible_lines(25, 45, 10, 100);
  EXPECT_EQ(r.first, 3);
  EXPECT_EQ(r.last, 7);
  EXPECT_EQ(visible_lines(0, 1000, 10, 5).last, 5);
  EXPECT_EQ(visible_lines(-5, 10, 10, 5).first, 1);
  // Line 50 (pixels 490..500) from the top: scrolled so it shows with 2 lines below.
  EXPECT_FLOAT_EQ(scroll_to_show(50, 0, 100, 10), 520 - 100);
  // Line 2 from far below: back up with the context above it (clamped at 0).
  EXPECT_FLOAT_EQ(scroll_to_show(2, 400, 100, 10), 0);
  EXPECT_FLOAT_EQ(scroll_to_show(30, 400, 100, 10), 290 - 20);
  // Already in view: unchanged.
  EXPECT_FLOAT_EQ(scroll_to_show(45, 400, 100, 10), 400);
}

TEST(TextHistory, UndoRedoAcrossCommits) {
  TextHistory h;
  h.reset("a");
  EXPECT_FALSE(h.can_undo("a"));
  EXPECT_TRUE(h.can_undo("ab"));  // uncommitted edits can be undone
  h.commit("ab");
  h.commit("ab");  // no change: no new state
  EXPECT_EQ(h.states(), 2u);
  EXPECT_EQ(h.undo("abc").value(), "ab");  // "abc" committed first
  EXPECT_EQ(h.undo("ab").value(), "a");
  EXPECT_FALSE(h.undo("a").has_value());
  EXPECT_TRUE(h.can_redo("a"));
  EXPECT_EQ(h.redo("a").value(), "ab");
  EXPECT_EQ(h.redo("ab").value(), "abc");
  EXPECT_FALSE(h.redo("abc").has_value());
}

TEST(TextHistory, AnEditAfterUndoDropsRedo) {
  TextHistory h;
  h.reset("1");
  h.commit("12");
  h.commit("123");
  EXPECT_EQ(h.undo("123").value(), "12");
  EXPECT_FALSE(h.can_redo("12x"));  // edited since the undo
  EXPECT_FALSE(h.redo("12x").has_value());
  h.commit("12x");
  EXPECT_FALSE(h.can_redo("12x"));
  EXPECT_EQ(h.undo("12x").value(), "12");
  EXPECT_EQ(h.redo("12").value(), "12x");
}

TEST(TextHistory, ReplacingTheTextIsUndoable) {
  // A template or a reload replaces what the student typed: undo brings it back.
  TextHistory h;
  h.reset("template");
  h.commit("my edits");  // committed before the replacement
  h.commit("new file content");
  EXPECT_EQ(h.undo("new file content").value(), "my edits");
}

TEST(TextHistory, BoundedInBytesKeepsTheCurrentState) {
  TextHistory h(10);
  h.reset("aaaa");
  h.commit("bbbb");
  h.commit("cccc");  // 12 bytes: the oldest goes
  EXPECT_EQ(h.states(), 2u);
  EXPECT_EQ(h.undo("cccc").value(), "bbbb");
  EXPECT_FALSE(h.undo("bbbb").has_value());
  TextHistory big(4);
  big.reset("0123456789");  // larger than the bound on its own: still kept
  EXPECT_EQ(big.states(), 1u);
  big.commit("x");
  EXPECT_EQ(big.states(), 1u);
  EXPECT_FALSE(big.undo("x").has_value());
}

TEST(CodeText, IndentAfterNewline) {
  const std::string t = "    x = 1;\n  if (a) {  \n\tint b;\n\nz\n";
  EXPECT_EQ(indent_after_newline(t, t.find('\n')), "    ");
  EXPECT_EQ(indent_after_newline(t, t.find('\n', 11)), "    ");  // after '{' (trailing spaces)
  EXPECT_EQ(indent_after_newline(t, t.find("\n\n")), "\t");
  EXPECT_EQ(indent_after_newline(t, t.find("\n\n") + 1), "");  // an empty line
  EXPECT_EQ(indent_after_newline("{\n", 1), "  ");
  EXPECT_EQ(indent_after_newline("\n", 0), "");
  EXPECT_EQ(indent_after_newline("ab", 5), "");  // out of range
}

TEST(CodeText, AsciiQuotes) {
  EXPECT_EQ(ascii_quotes("array bounds of \xE2\x80\x98volatile int [0]\xE2\x80\x99"),
            "array bounds of 'volatile int [0]'");
  EXPECT_EQ(ascii_quotes("\xE2\x80\x9Cidy\xE2\x80\x9D is undefined"), "\"idy\" is undefined");
  EXPECT_EQ(ascii_quotes("plain \"ascii\" stays"), "plain \"ascii\" stays");
  EXPECT_EQ(ascii_quotes("\xE2\x80\x94 dash stays"), "\xE2\x80\x94 dash stays");  // U+2014
  EXPECT_EQ(ascii_quotes("cut \xE2\x80"), "cut \xE2\x80");                        // truncated
}
