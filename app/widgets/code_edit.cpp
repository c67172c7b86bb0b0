#include "widgets/code_edit.h"

#include <algorithm>

#include "widgets/code_text.h"

namespace cv::code {

namespace {

constexpr size_t npos = std::string_view::npos;

bool blank(char c) { return c == ' ' || c == '\t'; }

// The starts of the lines [begin, end) touches.
std::vector<size_t> touched_lines(std::string_view text, size_t begin, size_t end) {
  begin = std::min(begin, text.size());
  end = std::clamp(end, begin, text.size());
  // A selection that ends at a line's start does not take that line.
  if (end > begin && text[end - 1] == '\n') --end;
  const size_t prev = begin == 0 ? npos : text.rfind('\n', begin - 1);
  size_t start = prev == npos ? 0 : prev + 1;
  std::vector<size_t> out{start};
  for (size_t k = text.find('\n', start); k != npos && k < end; k = text.find('\n', k + 1))
    out.push_back(k + 1);
  return out;
}

size_t line_end(std::string_view text, size_t start) {
  const size_t nl = text.find('\n', start);
  return nl == npos ? text.size() : nl;
}
// The first byte after the line's indentation.
size_t text_start(std::string_view text, size_t start) {
  const size_t e = line_end(text, start);
  while (start < e && blank(text[start])) ++start;
  return start;
}
bool has_text(std::string_view text, size_t start) {
  const size_t t = text_start(text, start);
  return t < line_end(text, start) && text[t] != '\r';
}

// Changes at increasing offsets: `removed` bytes at `at` replaced by `inserted`.
struct Change {
  size_t at, removed;
  std::string inserted;
};

// Where offset p lands after the changes. A position inside removed bytes goes
// to where they were; one exactly at an insertion stays before it when
// `before` (a selection's start, so the selection takes the new indentation).
size_t map_offset(const std::vector<Change>& changes, size_t p, bool before) {
  long shift = 0;
  for (const Change& c : changes) {
    if (c.at > p || (c.at == p && before && c.removed == 0)) break;
    if (p < c.at + c.removed) return c.at + shift;
    shift += static_cast<long>(c.inserted.size()) - static_cast<long>(c.removed);
  }
  return static_cast<size_t>(static_cast<long>(p) + shift);
}

Edited apply(std::string_view text, const std::vector<Change>& changes, size_t begin, size_t end) {
  Edited e;
  e.text.reserve(text.size() + changes.size() * 3);
  size_t from = 0;
  for (const Change& c : changes) {
    e.text.append(text.substr(from, c.at - from));
    e.text += c.inserted;
    from = c.at + c.removed;
  }
  e.text.append(text.substr(from));
  const bool cursor = begin == end;
  // A cursor moves with the text after it; a selection's start keeps the new indentation inside.
  e.begin = map_offset(changes, begin, !cursor);
  e.end = cursor ? e.begin : map_offset(changes, end, false);
  return e;
}

}  // namespace

Edited indent_lines(std::string_view text, size_t begin, size_t end) {
  std::vector<Change> changes;
  for (size_t s : touched_lines(text, begin, end))
    if (line_end(text, s) > s) changes.push_back({s, 0, std::string(kIndentUnit)});
  return apply(text, changes, begin, end);
}

Edited indent_at_cursor(std::string_view text, size_t cursor) {
  cursor = std::min(cursor, text.size());
  const size_t prev = cursor == 0 ? npos : text.rfind('\n', cursor - 1);
  const size_t column = cursor - (prev == npos ? 0 : prev + 1);
  const size_t n = kIndentUnit.size() - column % kIndentUnit.size();
  return apply(text, {{cursor, 0, std::string(n, ' ')}}, cursor, cursor);
}

Edited unindent_lines(std::string_view text, size_t begin, size_t end) {
  std::vector<Change> changes;
  for (size_t s : touched_lines(text, begin, end)) {
    const size_t e = line_end(text, s);
    size_t n = 0;
    if (s < e && text[s] == '\t')
      n = 1;
    else
      while (n < kIndentUnit.size() && s + n < e && text[s + n] == ' ') ++n;
    if (n) changes.push_back({s, n, {}});
  }
  return apply(text, changes, begin, end);
}

Edited toggle_comment(std::string_view text, size_t begin, size_t end) {
  const std::vector<size_t> lines = touched_lines(text, begin, end);
  std::vector<size_t> with_text;
  for (size_t s : lines)
    if (has_text(text, s)) with_text.push_back(s);
  const bool all_commented =
      !with_text.empty() && std::all_of(with_text.begin(), with_text.end(), [&](size_t s) {
        return text.substr(text_start(text, s), 2) == "//";
      });
  std::vector<Change> changes;
  if (all_commented) {
    for (size_t s : with_text) {
      const size_t at = text_start(text, s);
      const size_t n = at + 2 < text.size() && text[at + 2] == ' ' ? 3 : 2;
      changes.push_back({at, n, {}});
    }
    return apply(text, changes, begin, end);
  }
  if (with_text.empty()) {  // a blank line: a comment starts at its indentation
    const size_t at = text_start(text, lines.front());
    return apply(text, {{at, 0, "// "}}, begin, end);
  }
  size_t column = npos;
  for (size_t s : with_text) column = std::min(column, text_start(text, s) - s);
  for (size_t s : with_text) changes.push_back({s + column, 0, "// "});
  return apply(text, changes, begin, end);
}

AutoIndent auto_indent(std::string_view text, size_t newline) {
  AutoIndent a;
  if (newline >= text.size() || text[newline] != '\n') return a;
  a.insert = indent_after_newline(text, newline);
  a.cursor = a.insert.size();
  // Enter between '{' and '}': the '}' gets its own line at the outer level.
  size_t k = newline + 1;
  while (k < text.size() && blank(text[k])) ++k;
  size_t p = newline;
  while (p > 0 && (blank(text[p - 1]) || text[p - 1] == '\r')) --p;
  if (k < text.size() && text[k] == '}' && p > 0 && text[p - 1] == '{') {
    const std::string outer = a.insert.substr(0, a.insert.size() - std::min(a.insert.size(), kIndentUnit.size()));
    a.insert += "\n" + outer;
  }
  return a;
}

std::optional<BracketMatch> match_bracket(std::string_view text, const std::vector<Run>& runs,
                                          size_t cursor) {
  // Brackets are runs of their own kind (one byte each), in text order.
  const auto bracket_at = [&](size_t p) -> const Run* {
    if (p >= text.size()) return nullptr;
    auto it = std::upper_bound(runs.begin(), runs.end(), p,
                               [](size_t q, const Run& r) { return q < r.begin; });
    if (it == runs.begin()) return nullptr;
    --it;
    return it->kind == Syntax::Bracket && it->begin == p && it->end == p + 1 ? &*it : nullptr;
  };
  const Run* r = cursor > 0 ? bracket_at(cursor - 1) : nullptr;
  if (!r) r = bracket_at(cursor);
  if (!r) return std::nullopt;
  BracketMatch m{r->begin, std::nullopt};
  const char c = text[r->begin];
  static constexpr std::string_view kOpen = "([{", kClose = ")]}";
  const bool open = kOpen.find(c) != npos;
  const char partner = open ? kClose[kOpen.find(c)] : kOpen[kClose.find(c)];
  int depth = 0;
  const auto step = [&](const Run& q) {
    if (q.kind != Syntax::Bracket) return false;
    const char d = text[q.begin];
    if (d == c) ++depth;
    if (d == partner && --depth == 0) {
      m.match = q.begin;
      return true;
    }
    return false;
  };
  const auto here = runs.begin() + (r - runs.data());
  if (open) {
    for (auto it = here; it != runs.end(); ++it)
      if (step(*it)) break;
  } else {
    for (auto it = std::make_reverse_iterator(here + 1); it != runs.rend(); ++it)
      if (step(*it)) break;
  }
  return m;
}

size_t first_difference(std::string_view a, std::string_view b) {
  const size_t n = std::min(a.size(), b.size());
  return static_cast<size_t>(std::mismatch(a.begin(), a.begin() + n, b.begin()).first - a.begin());
}

}  // namespace cv::code
