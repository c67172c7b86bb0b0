#include "challenge/backend_tells.h"

#include <cctype>
#include <string>

namespace cv::challenge {

namespace {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Names that differ between NVRTC, the host compiler and the emulator.
bool tells_backend(const std::string& w) {
  static constexpr const char* kNames[] = {
      "__CUDA_ARCH__", "__CUDA_ARCH_LIST__", "__CUDACC__", "__CUDACC_RTC__", "__NVCC__", "__CUDACC_VER_MAJOR__",
      "__CUDACC_VER_MINOR__", "__GNUC__", "__GNUG__", "__GNUC_MINOR__", "__clang__", "__llvm__", "__cplusplus",
      "__x86_64__", "__aarch64__", "__linux__", "__unix__", "__OPTIMIZE__", "__has_builtin", "__has_feature",
      "__has_attribute", "__has_cpp_attribute", "__STDC_HOSTED__", "__SANITIZE_ADDRESS__"};
  for (const char* n : kNames)
    if (w == n) return true;
  // The emulator's own names (its prelude's cv_emu_* and CV_EMU*).
  return w.rfind("cv_emu", 0) == 0 || w.rfind("CV_EMU", 0) == 0;
}

// Skips a comment or a literal starting at i; the index after it (i when none).
size_t skip_comment_or_literal(std::string_view s, size_t i) {
  if (s.compare(i, 2, "//") == 0) return s.find('\n', i) == std::string_view::npos ? s.size() : s.find('\n', i);
  if (s.compare(i, 2, "/*") == 0) {
    const size_t e = s.find("*/", i + 2);
    return e == std::string_view::npos ? s.size() : e + 2;
  }
  if (s[i] == '"' || s[i] == '\'') {
    size_t k = i + 1;
    while (k < s.size() && s[k] != s[i] && s[k] != '\n') k += s[k] == '\\' ? 2 : 1;
    return k + 1;
  }
  return i;
}

}  // namespace

std::vector<usercode::Diagnostic> backend_tells(std::string_view source) {
  // As the compilers see it: splices joined; `line` maps each kept character back.
  std::string s;
  std::vector<int> line;
  int at = 1;
  for (size_t i = 0; i < source.size(); ++i) {
    if (source[i] == '\\') {
      size_t k = i + 1;
      while (k < source.size() && (source[k] == ' ' || source[k] == '\t' || source[k] == '\r')) ++k;
      if (k < source.size() && source[k] == '\n') {
        i = k;
        ++at;
        continue;
      }
    }
    s += source[i];
    line.push_back(at);
    if (source[i] == '\n') ++at;
  }
  std::vector<usercode::Diagnostic> out;
  for (size_t i = 0; i < s.size();) {
    if (const size_t e = skip_comment_or_literal(s, i); e != i) {
      i = e;
      continue;
    }
    if (!ident_char(s[i]) || (i > 0 && ident_char(s[i - 1]))) {
      ++i;
      continue;
    }
    size_t e = i;
    while (e < s.size() && ident_char(s[e])) ++e;
    const std::string w(s.substr(i, e - i));
    if (tells_backend(w))
      out.push_back({line[i], 0, usercode::Severity::Error,
                     "'" + w + "' is not allowed in a challenge: the kernel must be the same code where it is "
                     "timed and where explain checks it for races"});
    i = e;
  }
  return out;
}

}  // namespace cv::challenge
