#include "usercode/compile/include_guard.h"

#include <cctype>
#include <string>

namespace cv::usercode {
namespace {

// The text as the preprocessor's tokenizer sees it, each character with the
// original line it came from.
struct Normal {
  std::string text;
  std::vector<int> line;  // per character of text
};

Normal normalize(std::string_view src) {
  Normal n;
  n.text.reserve(src.size());
  n.line.reserve(src.size());
  int line = 1;
  for (size_t i = 0; i < src.size(); ++i) {
    char c = src[i];
    size_t next = i + 1;
    if (c == '?' && i + 2 < src.size() && src[i + 1] == '?' && (src[i + 2] == '=' || src[i + 2] == '/')) {
      c = src[i + 2] == '=' ? '#' : '\\';  // trigraphs ??= and ??/
      next = i + 3;
    } else if (c == '%' && i + 1 < src.size() && src[i + 1] == ':') {
      c = '#';  // the digraph %:
      next = i + 2;
    }
    if (c == '\\') {  // a splice: backslash, optional blanks, newline
      size_t j = next;
      while (j < src.size() && (src[j] == ' ' || src[j] == '\t' || src[j] == '\r')) ++j;
      if (j < src.size() && src[j] == '\n') {
        ++line;
        i = j;
        continue;
      }
    }
    n.text += c;
    n.line.push_back(line);
    if (c == '\n') ++line;
    i = next - 1;
  }
  return n;
}

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

class Scanner {
 public:
  explicit Scanner(const Normal& n) : n_(n), s_(n.text) {}

  std::vector<Diagnostic> run() {
    for (size_t i = 0; i < s_.size();) i = step(i);
    return out_;
  }

 private:
  // Skips blanks and block comments on the same logical line; returns the next position.
  size_t skip_blanks(size_t i) const {
    for (;;) {
      while (i < s_.size() && (s_[i] == ' ' || s_[i] == '\t' || s_[i] == '\v' || s_[i] == '\f' || s_[i] == '\r')) ++i;
      if (i + 1 < s_.size() && s_[i] == '/' && s_[i + 1] == '*') {
        const size_t end = s_.find("*/", i + 2);
        i = end == std::string::npos ? s_.size() : end + 2;
        continue;
      }
      return i;
    }
  }
  std::string word_at(size_t i) const {
    size_t k = i;
    while (k < s_.size() && ident_char(s_[k])) ++k;
    return s_.substr(i, k - i);
  }
  void refuse(size_t at, const std::string& message) {
    out_.push_back({n_.line[std::min(at, n_.line.size() - 1)], 0, Severity::Error, message});
  }
  // Past a string or character literal starting at i (raw strings included).
  size_t past_literal(size_t i) const {
    if (s_[i] == 'R' && i + 1 < s_.size() && s_[i + 1] == '"') {
      const size_t open = s_.find('(', i + 2);
      if (open == std::string::npos || open - i - 2 > 16) return i + 2;
      const std::string close = ")" + s_.substr(i + 2, open - i - 2) + "\"";
      const size_t end = s_.find(close, open);
      return end == std::string::npos ? s_.size() : end + close.size();
    }
    const char q = s_[i];
    size_t k = i + 1;
    while (k < s_.size() && s_[k] != q && s_[k] != '\n') k += s_[k] == '\\' ? 2 : 1;
    return std::min(k + 1, s_.size());
  }
  size_t step(size_t i);
  void directive(size_t hash);
  void pragma_words(size_t from, size_t to, size_t at);

  const Normal& n_;
  const std::string& s_;
  std::vector<Diagnostic> out_;
  std::string last_word_;  // the identifier before this one
};

const char* kFileWords[] = {"include", "include_next", "include_alias", "import", "embed", "dependency"};

void Scanner::pragma_words(size_t from, size_t to, size_t at) {
  for (size_t k = from; k < to;) {
    if (!ident_char(s_[k])) {
      ++k;
      continue;
    }
    const std::string w = word_at(k);
    for (const char* f : kFileWords)
      if (w == f) {
        refuse(at, "a pragma naming '" + w + "' is not available: kernels are compiled without files");
        return;
      }
    k += w.size();
  }
}

void Scanner::directive(size_t hash) {
  const size_t j = skip_blanks(hash + 1);
  const std::string word = word_at(j);
  if (word == "include" || word == "include_next" || word == "import" || word == "embed")
    refuse(hash, "#" + word +
                     " is not available: kernels are compiled without files or system headers; the "
                     "prelude (shown above your code) already gives you the cv:: types and helpers");
  else if (word == "line")
    refuse(hash, "#line is not available: the app numbers your lines so messages point at them");
  else if (word == "pragma")
    pragma_words(j + word.size(), std::min(s_.find('\n', j), s_.size()), hash);
}

size_t Scanner::step(size_t i) {
  const char c = s_[i];
  if (c == '/' && i + 1 < s_.size() && s_[i + 1] == '/') {
    const size_t end = s_.find('\n', i);
    return end == std::string::npos ? s_.size() : end;
  }
  if (c == '/' && i + 1 < s_.size() && s_[i + 1] == '*') {
    const size_t end = s_.find("*/", i + 2);
    return end == std::string::npos ? s_.size() : end + 2;
  }
  if (c == '"' || c == '\'' || (c == 'R' && i + 1 < s_.size() && s_[i + 1] == '"' && (i == 0 || !ident_char(s_[i - 1]))))
    return past_literal(i);
  if (c == '#') {
    directive(i);
    return i + 1;
  }
  if (!ident_char(c)) return i + 1;
  const std::string w = word_at(i);
  if (i > 0 && ident_char(s_[i - 1])) return i + w.size();
  if (w.rfind("__has_include", 0) == 0)
    refuse(i, w + " is not available: kernels are compiled without files or system headers");
  else if (w == "__BASE_FILE__" || w == "__FILE_NAME__")
    refuse(i, w + " is not available: it names the build's file on the teacher's machine");
  else if (w == "dependency" && last_word_ == "GCC")  // a pragma's words handed to _Pragma by a macro
    refuse(i, "a pragma naming 'dependency' is not available: kernels are compiled without files");
  else if (w == "_Pragma") {
    const size_t open = skip_blanks(i + w.size());
    if (open < s_.size() && s_[open] == '(') {
      const size_t q = skip_blanks(open + 1);
      if (q < s_.size() && (s_[q] == '"' || s_[q] == 'L' || s_[q] == 'u' || s_[q] == 'U' || s_[q] == 'R'))
        pragma_words(q, past_literal(s_[q] == '"' ? q : std::min(s_.find('"', q), s_.size() - 1)), i);
    }
  }
  last_word_ = w;
  return i + w.size();
}

}  // namespace

std::vector<Diagnostic> refused_file_access(std::string_view source) {
  const Normal n = normalize(source);
  if (n.text.empty()) return {};
  return Scanner(n).run();
}

}  // namespace cv::usercode
