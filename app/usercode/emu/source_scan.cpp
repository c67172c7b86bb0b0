#include "usercode/emu/source_scan.h"

#include <cctype>
#include <regex>

namespace cv::emu {
namespace {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

struct Token {
  std::string text;
  int line;
  size_t pos;
};

std::vector<Token> identifiers(const std::string& code) {
  std::vector<Token> out;
  int line = 1;
  for (size_t i = 0; i < code.size();) {
    const char c = code[i];
    if (c == '\n') {
      ++line, ++i;
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t j = i;
      while (j < code.size() && ident_char(code[j])) ++j;
      out.push_back({code.substr(i, j - i), line, i});
      i = j;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      while (i < code.size() && (ident_char(code[i]) || code[i] == '.')) ++i;
    } else {
      ++i;
    }
  }
  return out;
}

}  // namespace

std::string code_only(std::string_view s) {
  std::string out(s);
  enum { Code, Line, Block, Str, Chr } st = Code;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i], n = i + 1 < s.size() ? s[i + 1] : '\0';
    switch (st) {
      case Code:
        if (c == '/' && n == '/') st = Line, out[i] = ' ';
        else if (c == '/' && n == '*') st = Block, out[i] = ' ', out[++i] = ' ';
        else if (c == '"') st = Str;
        else if (c == '\'') st = Chr;
        break;
      case Line:
        if (c == '\n') st = Code;
        else out[i] = ' ';
        break;
      case Block:
        if (c == '*' && n == '/') st = Code, out[i] = ' ', out[++i] = ' ';
        else if (c != '\n') out[i] = ' ';
        break;
      case Str:
      case Chr:
        if (c == '\\' && n != '\0') {
          out[i] = ' ';
          if (n != '\n') out[++i] = ' ';
        } else if (c == (st == Str ? '"' : '\'')) {
          st = Code;
        } else if (c != '\n') {
          out[i] = ' ';
        }
        break;
    }
  }
  return out;
}

SourceScan scan_source(std::string_view source) {
  SourceScan r;
  const std::string code = code_only(source);
  static const char* const kSync[] = {"__syncthreads", "__syncwarp",     "__shfl_sync",
                                      "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync",
                                      "__ballot_sync", "__any_sync",     "__all_sync",
                                      "__activemask"};
  struct GpuOnly {
    const char* word;
    const char* sentence;
  };
  static const GpuOnly kGpuOnly[] = {
      {"asm", "inline PTX assembly (asm) runs only on an NVIDIA GPU; the CPU emulator cannot run it"},
      {"__asm__", "inline PTX assembly (__asm__) runs only on an NVIDIA GPU; the CPU emulator cannot run it"},
      {"__asm", "inline PTX assembly (__asm) runs only on an NVIDIA GPU; the CPU emulator cannot run it"},
      {"texture", "texture references run only on an NVIDIA GPU; the CPU emulator cannot run them (read a cv::Span instead)"},
      {"cooperative_groups", "cooperative groups (grid-wide sync) run only on an NVIDIA GPU; the CPU emulator cannot run them"},
      {"this_grid", "grid-wide synchronisation (this_grid) runs only on an NVIDIA GPU; the CPU emulator cannot run it"},
  };
  const std::vector<Token> ids = identifiers(code);
  for (const Token& t : ids) {
    for (const char* w : kSync)
      if (t.text == w) r.uses_sync = true;
    for (const GpuOnly& g : kGpuOnly) {
      if (t.text != g.word) continue;
      if (t.text == "texture") {  // only the template `texture<...>`, not a variable's name
        size_t j = t.pos + t.text.size();
        while (j < code.size() && std::isspace(static_cast<unsigned char>(code[j]))) ++j;
        if (j >= code.size() || code[j] != '<') continue;
      }
      r.gpu_only.push_back({t.line, g.sentence});
    }
  }
  // A launch inside a kernel file: `name<<<` (dynamic parallelism).
  int line = 1;
  for (size_t i = 0; i + 2 < code.size(); ++i) {
    if (code[i] == '\n') ++line;
    if (code.compare(i, 3, "<<<") == 0) {
      r.gpu_only.push_back({line, "a kernel launch inside a kernel (dynamic parallelism) runs only on an NVIDIA GPU; "
                                  "the CPU emulator cannot run it"});
      i += 2;
    }
  }
  static const std::regex kExtern(
      R"(extern\s+__shared__\s+((?:__align__\s*\(\s*\d+\s*\)\s*)?)([A-Za-z_][\w\s:<>,]*?)\s+([A-Za-z_]\w*)\s*\[\s*\])");
  for (std::sregex_iterator it(code.begin(), code.end(), kExtern), end; it != end; ++it) {
    ExternShared e{(*it)[2].str(), (*it)[3].str()};
    bool seen = false;
    for (const ExternShared& x : r.extern_shared) seen = seen || x.name == e.name;
    if (!seen) r.extern_shared.push_back(e);
  }
  return r;
}

}  // namespace cv::emu
