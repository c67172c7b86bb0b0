// The editor's commands as functions of text and selection
// (widgets/code_edit.h): indent, unindent, comment toggle, auto-indent and
// bracket matching.
#include <gtest/gtest.h>

#include <string>

#include "widgets/code_edit.h"

namespace {

using namespace cv::code;

// A selection written into the text: '[' and ']' mark it, '|' a cursor.
struct Marked {
  std::string text;
  size_t begin = 0, end = 0;
};
Marked parse(const std::string& m) {
  Marked r;
  for (char c : m) {
    if (c == '[' ) r.begin = r.text.size();
    else if (c == ']') r.end = r.text.size();
    else if (c == '|') r.begin = r.end = r.text.size();
    else r.text += c;
  }
  return r;
}
std::string show(const Edited& e) {
  std::string s = e.text;
  if (e.begin == e.end) return s.insert(e.begin, "|"), s;
  s.insert(e.end, "]");
  s.insert(e.begin, "[");
  return s;
}
template <class F>
std::string run(F f, const std::string& marked) {
  const Marked m = parse(marked);
  return show(f(m.text, m.begin, m.end));
}

TEST(CodeEdit, IndentTakesEveryTouchedLineButEmptyOnesAndTheLineAfterTheSelection) {
  EXPECT_EQ(run(indent_lines, "a[b\n\nc\nd]e\nf"), "  a[b\n\n  c\n  d]e\nf");
  // Whole lines selected end at the next line's start: that line stays.
  EXPECT_EQ(run(indent_lines, "[x\ny\n]z"), "[  x\n  y\n]z");
  // A selection inside one line indents that line.
  EXPECT_EQ(run(indent_lines, "  if ([x]) {"), "    if ([x]) {");
}

TEST(CodeEdit, TabWithoutSelectionGoesToTheNextStop) {
  EXPECT_EQ(show(indent_at_cursor("ab", 0)), "  |ab");
  EXPECT_EQ(show(indent_at_cursor("ab", 1)), "a |b");
  EXPECT_EQ(show(indent_at_cursor("x\nab", 4)), "x\nab  |");
}

TEST(CodeEdit, UnindentRemovesOneLevelWhereThereIsOne) {
  EXPECT_EQ(run(unindent_lines, "    a[b\n x\nc\n\td]"), "  a[b\nx\nc\nd]");
  EXPECT_EQ(run(unindent_lines, "  ab|c"), "ab|c");
  // A cursor inside the removed indentation goes to the line's start.
  EXPECT_EQ(run(unindent_lines, " |  x"), "| x");
  EXPECT_EQ(run(unindent_lines, "none|"), "none|");
  // Indent then unindent gives the text back.
  const Marked m = parse("a\n[  b\nc]\n");
  const Edited in = indent_lines(m.text, m.begin, m.end);
  const Edited out = unindent_lines(in.text, in.begin, in.end);
  EXPECT_EQ(out.text, m.text);
}

TEST(CodeEdit, CommentToggleAddsAlignedMarksAndTakesThemAway) {
  const std::string block = "  if (x) {\n[    y();\n\n  }]\n";
  const std::string commented = run(toggle_comment, block);
  EXPECT_EQ(commented, "  if (x) {\n[  //   y();\n\n  // }]\n");
  // Toggled back: the same text.
  const Marked m = parse(commented);
  EXPECT_EQ(toggle_comment(m.text, m.begin, m.end).text, parse(block).text);
  // A cursor comments its line and stays on the same character.
  EXPECT_EQ(run(toggle_comment, "a = |b;"), "// a = |b;");
  EXPECT_EQ(run(toggle_comment, "  //a = |b;"), "  a = |b;");
  // One line without its mark among commented ones: all get one.
  EXPECT_EQ(run(toggle_comment, "[// a\nb]"), "[// // a\n// b]");
  // A blank line alone gets a mark at its indentation.
  EXPECT_EQ(run(toggle_comment, "  |"), "  // |");
}

TEST(CodeEdit, AutoIndentKeepsTheLevelAndSplitsBraces) {
  AutoIndent a = auto_indent("  x;\n", 4);
  EXPECT_EQ(a.insert, "  ");
  EXPECT_EQ(a.cursor, 2u);
  a = auto_indent("  if (y) {\n", 10);
  EXPECT_EQ(a.insert, "    ");
  // Enter in "{}": the '}' on its own line at the outer level, the cursor inside.
  a = auto_indent("  f() {\n}", 7);
  EXPECT_EQ(a.insert, "    \n  ");
  EXPECT_EQ(a.cursor, 4u);
  EXPECT_EQ(auto_indent("x", 0).insert, "");  // not a newline
}

TEST(CodeEdit, BracketMatchingSkipsCommentsAndStrings) {
  const std::string t = "f(a[i], \")\" /* ) */, g(b)) {\n  x;\n}";
  const auto runs = highlight(t);
  // After the '(' of f: its partner is the last ')' of the line.
  auto m = match_bracket(t, runs, 2);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->at, 1u);
  ASSERT_TRUE(m->match);
  EXPECT_EQ(*m->match, t.find(") {"));
  // Before the '[' (no bracket before the cursor): its ']'.
  m = match_bracket(t, runs, 3);
  ASSERT_TRUE(m && m->match);
  EXPECT_EQ(m->at, 3u);
  EXPECT_EQ(*m->match, 5u);
  // A closing brace finds its opener backwards.
  m = match_bracket(t, runs, t.size());
  ASSERT_TRUE(m && m->match);
  EXPECT_EQ(*m->match, t.find('{'));
  // Brackets in strings and comments are not brackets.
  EXPECT_FALSE(match_bracket(t, runs, t.find("\")\"") + 2));
  // Nothing next to the cursor.
  EXPECT_FALSE(match_bracket(t, runs, t.find("x;") + 1));
  // Unclosed: found, without a partner.
  const std::string u = "if (a[0] {";
  m = match_bracket(u, highlight(u), 4);
  ASSERT_TRUE(m);
  EXPECT_FALSE(m->match);
}

TEST(CodeEdit, FirstDifference) {
  EXPECT_EQ(first_difference("abc", "abd"), 2u);
  EXPECT_EQ(first_difference("ab", "abc"), 2u);
  EXPECT_EQ(first_difference("", "x"), 0u);
  EXPECT_EQ(first_difference("same", "same"), 4u);
}

}  // namespace
