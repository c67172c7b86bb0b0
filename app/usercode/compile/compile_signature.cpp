// A function that does not match its template's declaration, reported at the
// student's function with the declaration it should have. Compilers report it
// elsewhere and in their own words: NVRTC "more than one instance of
// overloaded function ... has "C" linkage" (a whole kernel) or "extern inline
// function ... was referenced but not defined" in the app's wrapper (a
// per-item function); GCC "conflicting declaration of C function", "no matches
// converting function ... to type" in the emulator's epilogue, or the linker's
// "undefined reference to" (per-item functions link with -z defs).
#include <algorithm>
#include <cctype>

#include "usercode/compile/compile_parts.h"

namespace cv::usercode::detail {
namespace {

bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Words of a compiler or linker that mean "your function is not the declared one".
bool says_mismatch(const std::string& text, const std::string& name) {
  static const char* const kWords[] = {"more than one instance of overloaded function",
                                       "conflicting declaration of C function",
                                       "no matches converting function",
                                       "was referenced but not defined",
                                       "used but never defined",
                                       "undefined reference to",
                                       "no kernel named"};
  if (text.find(name) == std::string::npos) return false;
  return std::any_of(std::begin(kWords), std::end(kWords),
                     [&](const char* w) { return text.find(w) != std::string::npos; });
}

std::string expected_declaration(const TemplateSpec& t) {
  std::string d = !t.declaration.empty() ? t.declaration
                                         : "extern \"C\" __global__ void " + t.entry + "(" + parameter_text(t) + ")";
  while (!d.empty() && (d.back() == ';' || d.back() == '\n' || d.back() == ' ')) d.pop_back();
  // One line: the declaration's own line breaks and indents read as one space.
  std::string one;
  for (size_t i = 0; i < d.size(); ++i) {
    if (d[i] == '\n') {
      while (i + 1 < d.size() && d[i + 1] == ' ') ++i;
      one += ' ';
      continue;
    }
    one += d[i];
  }
  return one;
}

// The linker's line that names the function ("undefined reference to ...").
std::string linker_words(const std::string& log, const std::string& name) {
  size_t at = log.find("undefined reference to");
  if (at == std::string::npos || log.find(name, at) == std::string::npos) return log.substr(0, 400);
  const size_t end = log.find('\n', at);
  return log.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

}  // namespace

std::pair<int, int> find_definition(const std::string& src, const std::string& name) {
  enum { Code, Block, Line, Str, Chr } state = Code;
  int line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < src.size(); ++i) {
    const char c = src[i], n = i + 1 < src.size() ? src[i + 1] : '\0';
    if (c == '\n') {
      ++line, line_start = i + 1;
      if (state == Line || state == Str || state == Chr) state = Code;
      continue;
    }
    if (state == Block) {
      if (c == '*' && n == '/') state = Code, ++i;
      continue;
    }
    if (state == Line) continue;
    if (state == Str || state == Chr) {
      if (c == '\\') ++i;
      else if ((state == Str && c == '"') || (state == Chr && c == '\'')) state = Code;
      continue;
    }
    if (c == '/' && n == '*') { state = Block, ++i; continue; }
    if (c == '/' && n == '/') { state = Line; continue; }
    if (c == '"') { state = Str; continue; }
    if (c == '\'') { state = Chr; continue; }
    if (src.compare(i, name.size(), name) != 0 || (i > 0 && is_ident(src[i - 1]))) continue;
    size_t j = i + name.size();
    if (j < src.size() && is_ident(src[j])) continue;
    while (j < src.size() && std::isspace(static_cast<unsigned char>(src[j]))) ++j;
    if (j < src.size() && src[j] == '(') return {line, static_cast<int>(i - line_start) + 1};
  }
  return {0, 0};
}

void explain_signature(const std::string& source, const TemplateSpec& t, CompileResult& r) {
  const std::string name = t.student_function.empty() ? t.entry : t.student_function;
  // A failed link's words are in the log (r.error holds its first lines).
  const bool link = !r.error.empty() && says_mismatch(r.log, name);
  bool mismatch = says_mismatch(r.error, name) || link;
  for (const Diagnostic& d : r.diagnostics) mismatch = mismatch || (d.severity == Severity::Error && says_mismatch(d.message, name));
  if (!mismatch) return;
  // The compiler's own words stay, as notes under ours.
  for (Diagnostic& d : r.diagnostics)
    if (d.severity != Severity::Note && says_mismatch(d.message, name)) d.severity = Severity::Note;
  if (says_mismatch(r.error, name) || link) {
    r.diagnostics.push_back({0, 0, Severity::Note, link ? linker_words(r.log, name) : r.error});
    r.error.clear();
  }
  const auto [line, column] = find_definition(source, name);
  const std::string want = expected_declaration(t);
  Diagnostic d{line, column, Severity::Error,
               line ? name + " does not match the " + t.name + " template's declaration; it must be: " + want
                    : "the file does not define " + name + " as the " + t.name + " template declares it: " + want};
  r.diagnostics.insert(r.diagnostics.begin(), std::move(d));
}

}  // namespace cv::usercode::detail
