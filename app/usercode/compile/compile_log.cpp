#include "usercode/compile/compile_log.h"

#include "usercode/compile/include_guard.h"

#include <cctype>
#include <cstdio>
#include <regex>
#include <sstream>

namespace cv::usercode {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) {
    if (!l.empty() && l.back() == '\r') l.pop_back();
    lines.push_back(l);
  }
  return lines;
}

Severity severity_of(const std::string& word) {
  if (word.find("error") != std::string::npos) return Severity::Error;
  if (word.find("warning") != std::string::npos) return Severity::Warning;
  return Severity::Note;
}

// Diagnostics outside the student's file: line 0, and where they came from.
Diagnostic elsewhere(Severity sev, const std::string& file, const std::string& line,
                     const std::string& message) {
  return {0, 0, sev, message + " (in the app's " + file + ", line " + line + ")"};
}

}  // namespace

std::vector<Diagnostic> parse_nvrtc_log(const std::string& log, const std::string& student_file) {
  static const std::regex head(R"(^(.+)\((\d+)\): (catastrophic error|error|warning|remark)( #[0-9]+-[A-Z])?: (.*)$)");
  std::vector<Diagnostic> out;
  const std::vector<std::string> lines = lines_of(log);
  for (size_t k = 0; k < lines.size(); ++k) {
    std::smatch m;
    if (!std::regex_match(lines[k], m, head)) continue;
    const Severity sev = severity_of(m[3]);
    std::string message = m[5];
    if (m[4].matched) message += " (" + std::string(m[4]).substr(2) + ")";
    if (m[1] != student_file) {
      out.push_back(elsewhere(sev, m[1], m[2], message));
      continue;
    }
    Diagnostic d{std::stoi(m[2]), 0, sev, message};
    // The source line is echoed indented by two more spaces than it is, then
    // a caret under the column.
    if (k + 2 < lines.size()) {
      const std::string& caret = lines[k + 2];
      const size_t pos = caret.find('^');
      if (pos != std::string::npos && caret.find_first_not_of(' ') == pos && pos >= 2)
        d.column = static_cast<int>(pos - 2 + 1);
    }
    out.push_back(d);
  }
  return out;
}

std::vector<Diagnostic> parse_host_log(const std::string& log, const std::string& student_file) {
  static const std::regex head(R"(^(.+?):(\d+):(\d+): (fatal error|error|warning|note): (.*)$)");
  std::vector<Diagnostic> out;
  for (const std::string& l : lines_of(log)) {
    std::smatch m;
    if (!std::regex_match(l, m, head)) continue;
    const Severity sev = severity_of(m[4]);
    if (m[1] != student_file) {
      out.push_back(elsewhere(sev, m[1], m[2], m[5]));
      continue;
    }
    out.push_back({std::stoi(m[2]), std::stoi(m[3]), sev, m[5]});
  }
  return out;
}

std::vector<Diagnostic> check_source(std::string_view src) {
  std::vector<Diagnostic> out;
  if (src.size() > kMaxSourceBytes) {
    out.push_back({0, 0, Severity::Error,
                   "the file is " + std::to_string(src.size()) +
                       " bytes; a kernel file may be at most " + std::to_string(kMaxSourceBytes) +
                       " bytes (" + std::to_string(kMaxSourceBytes / 1024) + " KiB)"});
    return out;
  }
  int line = 1;
  for (size_t i = 0; i < src.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(src[i]);
    if (c == '\n') ++line;
    const bool control = c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v';
    if (control || c == 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02x", c);
      out.push_back({line, 0, Severity::Error,
                     std::string("the file is not text: byte ") + hex +
                         " here; a kernel file must be C++ source (is this the right file?)"});
      return out;
    }
  }
  // A block comment never closed (the compilers' message would point at the end).
  enum { Code, Block, LineComment, Str, Chr } state = Code;
  line = 1;
  int comment_line = 0;
  for (size_t i = 0; i < src.size(); ++i) {
    const char c = src[i], n = i + 1 < src.size() ? src[i + 1] : '\0';
    if (c == '\n') {
      ++line;
      if (state == LineComment || state == Str || state == Chr) state = Code;
      continue;
    }
    switch (state) {
      case Block:
        if (c == '*' && n == '/') state = Code, ++i;
        continue;
      case LineComment:
        continue;
      case Str:
      case Chr:
        if (c == '\\') ++i;
        else if ((state == Str && c == '"') || (state == Chr && c == '\'')) state = Code;
        continue;
      case Code:
        break;
    }
    if (c == '/' && n == '*') {
      state = Block, comment_line = line, ++i;
      continue;
    }
    if (c == '/' && n == '/') {
      state = LineComment;
      continue;
    }
    if (c == '"') state = Str;
    if (c == '\'') state = Chr;
  }
  if (state == Block)
    out.push_back({comment_line, 0, Severity::Error,
                   "this comment is never closed: add */ where it should end"});
  // Files by any spelling: #include, __has_include, pragmas (include_guard.h).
  for (Diagnostic& d : refused_file_access(src)) out.push_back(std::move(d));
  return out;
}

KernelResources parse_ptxas_resources(const std::string& full, const std::string& entry) {
  KernelResources r;
  const size_t at = full.find("Compiling entry function '" + entry + "'");
  if (at == std::string::npos) return r;
  const size_t next = full.find("Compiling entry function", at + 1);
  const std::string log = full.substr(at, next == std::string::npos ? std::string::npos : next - at);
  static const std::regex used(R"(Used (\d+) registers)"),
      stack(R"((\d+) bytes stack frame, (\d+) bytes spill stores)"), smem(R"((\d+) bytes smem)");
  std::smatch m;
  if (std::regex_search(log, m, used)) r.registers = std::stoi(m[1]), r.known = true;
  if (std::regex_search(log, m, stack)) r.local_bytes = std::stoi(m[1]), r.spill_bytes = std::stoi(m[2]);
  if (std::regex_search(log, m, smem)) r.shared_bytes = std::stoi(m[1]);
  return r;
}

}  // namespace cv::usercode
