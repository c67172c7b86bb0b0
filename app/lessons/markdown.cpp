#include "lessons/markdown.h"

#include <cctype>
#include <sstream>

namespace cv::lessons {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

bool starts_with(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }

// "3. text" -> "3."; "" when the line is not a numbered item.
std::string numbered(const std::string& t) {
  size_t i = 0;
  while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i;
  if (i == 0 || i + 1 >= t.size() || t[i] != '.' || t[i + 1] != ' ') return "";
  return t.substr(0, i + 1);
}

}  // namespace

std::vector<Span> parse_inline(const std::string& text) {
  std::vector<Span> out;
  Span cur;
  auto flush = [&] {
    if (!cur.text.empty()) out.push_back(cur);
    cur.text.clear();
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '`') {
      const auto end = text.find('`', i + 1);
      if (end == std::string::npos) {
        cur.text += c;
        continue;
      }
      flush();
      Span code;
      code.code = true;
      code.text = text.substr(i + 1, end - i - 1);
      out.push_back(code);
      i = end;
    } else if (c == '*' && i + 1 < text.size() && text[i + 1] == '*') {
      flush();
      cur.strong = !cur.strong;
      ++i;
    } else if (c == '*' || (c == '_' && (i == 0 || !std::isalnum(static_cast<unsigned char>(text[i - 1])) ||
                                         i + 1 == text.size() ||
                                         !std::isalnum(static_cast<unsigned char>(text[i + 1]))))) {
      // '_' only at a word's edge: snake_case names (ms_median) stay as they are.
      flush();
      cur.em = !cur.em;
    } else {
      cur.text += c;
    }
  }
  flush();
  return out;
}

std::vector<Block> parse_markdown(const std::string& text) {
  std::vector<Block> blocks;
  std::istringstream in(text);
  std::string line;
  bool in_code = false;
  std::string para;  // the paragraph being gathered
  auto end_para = [&] {
    if (trim(para).empty()) return;
    Block b;
    b.spans = parse_inline(trim(para));
    blocks.push_back(b);
    para.clear();
  };
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::string t = trim(line);
    if (starts_with(t, "```")) {
      end_para();
      if (!in_code) {
        Block b;
        b.kind = Block::Kind::Code;
        blocks.push_back(b);
      }
      in_code = !in_code;
      continue;
    }
    if (in_code) {
      blocks.back().code.push_back(line);
      continue;
    }
    if (t.empty()) {
      end_para();
      continue;
    }
    int level = 0;
    while (level < static_cast<int>(t.size()) && t[level] == '#') ++level;
    if (level >= 1 && level <= 3 && t.size() > static_cast<size_t>(level) && t[level] == ' ') {
      end_para();
      Block b;
      b.kind = Block::Kind::Heading;
      b.level = level;
      b.spans = parse_inline(trim(t.substr(level)));
      blocks.push_back(b);
      continue;
    }
    if (starts_with(t, "- ") || starts_with(t, "* ") || starts_with(t, "+ ")) {
      end_para();
      Block b;
      b.kind = Block::Kind::Bullet;
      b.level = line.find_first_not_of(' ') >= 2 ? 1 : 0;  // one level of nesting
      b.spans = parse_inline(trim(t.substr(2)));
      blocks.push_back(b);
      continue;
    }
    if (const std::string num = numbered(t); !num.empty()) {
      end_para();
      Block b;
      b.kind = Block::Kind::Numbered;
      b.number = num;
      b.spans = parse_inline(trim(t.substr(num.size() + 1)));
      blocks.push_back(b);
      continue;
    }
    // A line indented under a list item continues it.
    if (para.empty() && !blocks.empty() && line.size() > t.size() &&
        (blocks.back().kind == Block::Kind::Bullet || blocks.back().kind == Block::Kind::Numbered)) {
      auto more = parse_inline(" " + t);
      blocks.back().spans.insert(blocks.back().spans.end(), more.begin(), more.end());
      continue;
    }
    para += line + " ";
  }
  end_para();
  return blocks;
}

}  // namespace cv::lessons
