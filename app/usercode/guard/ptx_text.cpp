#include "usercode/guard/ptx_text.h"

#include <cctype>
#include <cstdlib>

namespace cv::usercode::guard {
namespace {

bool starts_word(const std::string& s, size_t pos, const char* word) {
  const std::string w = word;
  if (s.compare(pos, w.size(), w) != 0) return false;
  const size_t end = pos + w.size();
  return end >= s.size() || std::isspace(static_cast<unsigned char>(s[end]));
}

bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%';
}

bool is_identifier(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!ident_char(c)) return false;
  return true;
}

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

// Splits at commas outside (), [] and {}.
std::vector<std::string> split_top(const std::string& s) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char c : s) {
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!trim(cur).empty()) out.push_back(trim(cur));
  return out;
}

}  // namespace

std::vector<Piece> split_ptx(const std::string& s) {
  std::vector<Piece> out;
  const size_t n = s.size();
  size_t pos = 0;
  int line = 1;
  auto push = [&](PieceKind kind, size_t from, size_t to) {
    Piece p{kind, s.substr(from, to - from), line};
    for (size_t i = from; i < to; ++i) line += s[i] == '\n';
    if (kind == PieceKind::Space && !out.empty() && out.back().kind == PieceKind::Space) {
      out.back().text += p.text;
      return;
    }
    out.push_back(std::move(p));
  };
  auto skip_comment = [&](size_t i) -> size_t {  // i at '/': the index after the comment
    if (s.compare(i, 2, "//") == 0) {
      size_t e = s.find('\n', i);
      return e == std::string::npos ? n : e;
    }
    if (s.compare(i, 2, "/*") == 0) {
      size_t e = s.find("*/", i + 2);
      return e == std::string::npos ? n : e + 2;
    }
    return i;
  };
  while (pos < n) {
    const char c = s[pos];
    if (std::isspace(static_cast<unsigned char>(c)) || skip_comment(pos) != pos) {
      size_t e = pos;
      while (e < n) {
        if (std::isspace(static_cast<unsigned char>(s[e]))) ++e;
        else if (size_t k = skip_comment(e); k != e) e = k;
        else break;
      }
      push(PieceKind::Space, pos, e);
      pos = e;
      continue;
    }
    if (c == '{' || c == '}') {
      push(c == '{' ? PieceKind::Open : PieceKind::Close, pos, pos + 1);
      ++pos;
      continue;
    }
    if (starts_word(s, pos, ".version") || starts_word(s, pos, ".target") ||
        starts_word(s, pos, ".address_size") || starts_word(s, pos, ".loc") ||
        starts_word(s, pos, ".file")) {
      size_t e = s.find('\n', pos);
      if (e == std::string::npos) e = n;
      push(PieceKind::Directive, pos, e);
      pos = e;
      continue;
    }
    if (starts_word(s, pos, ".section")) {  // debug data: lines without ';', kept whole
      size_t e = s.find('{', pos);
      int depth = 0;
      for (; e != std::string::npos && e < n; ++e) {
        if (s[e] == '{') ++depth;
        if (s[e] == '}' && --depth == 0) break;
      }
      e = (e == std::string::npos || e >= n) ? n : e + 1;
      push(PieceKind::Raw, pos, e);
      pos = e;
      continue;
    }
    // A statement, a label or a function header.
    size_t e = pos;
    int paren = 0, brace = 0;
    PieceKind kind = PieceKind::Stmt;
    while (e < n) {
      const char d = s[e];
      if (d == '"') {
        size_t q = s.find('"', e + 1);
        e = q == std::string::npos ? n : q + 1;
        continue;
      }
      if (size_t k = skip_comment(e); k != e) {
        e = k;
        continue;
      }
      if (d == '(') ++paren;
      if (d == ')') --paren;
      if (d == ';' && paren <= 0 && brace <= 0) {
        ++e;
        break;
      }
      if (d == ':' && (e + 1 >= n || s[e + 1] != ':') && is_identifier(trim(s.substr(pos, e - pos)))) {
        kind = PieceKind::Label;
        ++e;
        break;
      }
      if (d == '{' && paren <= 0 && brace == 0) {
        const std::string so_far = " " + squeeze(s.substr(pos, e - pos)) + " ";
        if (so_far.find(" .entry ") != std::string::npos || so_far.find(" .func ") != std::string::npos ||
            so_far.find(".entry ") != std::string::npos) {
          kind = PieceKind::Header;
          break;
        }
      }
      if (d == '{') ++brace;
      if (d == '}') --brace;
      ++e;
    }
    push(kind, pos, e);
    pos = e;
  }
  return out;
}

std::string squeeze(const std::string& text) {
  std::string out;
  bool space = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {  // strings kept as they are
      size_t q = text.find('"', i + 1);
      if (q == std::string::npos) q = text.size() - 1;
      if (space && !out.empty()) out += ' ';
      space = false;
      out += text.substr(i, q - i + 1);
      i = q;
      continue;
    }
    if (text.compare(i, 2, "//") == 0) {
      size_t e = text.find('\n', i);
      i = e == std::string::npos ? text.size() : e;
      space = true;
      continue;
    }
    if (text.compare(i, 2, "/*") == 0) {
      size_t e = text.find("*/", i + 2);
      i = e == std::string::npos ? text.size() : e + 1;
      space = true;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

bool parse_instruction(const std::string& stmt, Instruction& out) {
  std::string t = squeeze(stmt);
  if (!t.empty() && t.back() == ';') t.pop_back();
  t = trim(t);
  if (t.empty() || t[0] == '.') return false;
  out = Instruction{};
  if (t[0] == '@') {
    size_t sp = t.find(' ');
    if (sp == std::string::npos) return false;
    std::string g = t.substr(1, sp - 1);
    if (!g.empty() && g[0] == '!') out.guard_negated = true, g.erase(0, 1);
    out.guard = g;
    t = trim(t.substr(sp + 1));
  }
  out.body = t;
  size_t sp = 0;
  while (sp < t.size() && !std::isspace(static_cast<unsigned char>(t[sp]))) ++sp;
  out.opcode = t.substr(0, sp);
  size_t from = 0;
  while (true) {
    size_t dot = out.opcode.find('.', from);
    out.parts.push_back(out.opcode.substr(from, dot - from));
    if (dot == std::string::npos) break;
    from = dot + 1;
  }
  out.operands = split_top(t.substr(sp));
  return !out.opcode.empty();
}

unsigned type_bytes(const std::string& t) {
  if (t == "b8" || t == "u8" || t == "s8") return 1;
  if (t == "b16" || t == "u16" || t == "s16" || t == "f16" || t == "bf16") return 2;
  if (t == "b32" || t == "u32" || t == "s32" || t == "f32" || t == "f16x2" || t == "bf16x2" ||
      t == "tf32")
    return 4;
  if (t == "b64" || t == "u64" || t == "s64" || t == "f64") return 8;
  if (t == "b128") return 16;
  return 0;
}

bool is_memory_root(const std::string& r) {
  return r == "ld" || r == "ldu" || r == "st" || r == "atom" || r == "red";
}

unsigned access_shape(const Instruction& ins, std::string& space) {
  space = "generic";
  unsigned vec = 1, type = 0;
  for (size_t k = 1; k < ins.parts.size(); ++k) {
    const std::string& q = ins.parts[k];
    if (q == "param" || q == "const" || q.rfind("const[", 0) == 0) space = "";
    else if (q == "global" || q == "local") space = q;
    else if (q == "shared" || q == "shared::cta") space = "shared";
    else if (q.rfind("shared::", 0) == 0) space = "";
    else if (q == "v2" || q == "v4" || q == "v8") vec = q[1] - '0';
    else if (unsigned b = type_bytes(q)) type = b;
  }
  return vec * type;
}

std::optional<VarDecl> parse_decl(const std::string& stmt) {
  std::string t = squeeze(stmt);
  if (!t.empty() && t.back() == ';') t.pop_back();
  if (t.empty() || t[0] != '.') return std::nullopt;
  if (size_t eq = t.find('='); eq != std::string::npos) t = trim(t.substr(0, eq));
  VarDecl d;
  unsigned vec = 1;
  size_t pos = 0;
  // The leading dotted words: qualifiers, space, alignment, type.
  while (pos < t.size() && t[pos] == '.') {
    size_t e = t.find(' ', pos);
    const std::string w = t.substr(pos + 1, (e == std::string::npos ? t.size() : e) - pos - 1);
    pos = e == std::string::npos ? t.size() : e + 1;
    if (w == "extern") d.is_extern = true;
    else if (w == "global" || w == "const" || w == "shared" || w == "local" || w == "reg" ||
             w == "param")
      d.space = w;
    else if (w == "align") {
      size_t e2 = t.find(' ', pos);
      d.align = static_cast<unsigned>(std::strtoul(t.substr(pos, e2 - pos).c_str(), nullptr, 10));
      pos = e2 == std::string::npos ? t.size() : e2 + 1;
    } else if (w == "v2" || w == "v4" || w == "v8")
      vec = static_cast<unsigned>(w[1] - '0');
    else if (unsigned b = type_bytes(w)) d.elem_bytes = b * vec;
    else if (w == "pred") d.elem_bytes = 0;
  }
  if (d.space.empty()) return std::nullopt;
  for (const std::string& item : split_top(t.substr(pos))) {
    const size_t br = item.find('[');
    d.names.push_back(trim(item.substr(0, br)));
    long long bytes = d.elem_bytes;
    for (size_t b = br; b != std::string::npos; b = item.find('[', b + 1)) {
      const size_t close = item.find(']', b);
      const std::string dim = trim(item.substr(b + 1, close - b - 1));
      if (dim.empty()) {
        bytes = -1;
        break;
      }
      bytes *= std::strtoll(dim.c_str(), nullptr, 0);
    }
    d.bytes = bytes;  // per name (all names of one declaration share the shape in NVVM output)
  }
  if (d.names.empty()) return std::nullopt;
  return d;
}

}  // namespace cv::usercode::guard
