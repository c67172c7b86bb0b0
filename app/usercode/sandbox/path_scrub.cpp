#include "usercode/sandbox/path_scrub.h"

namespace cv::sandbox {
namespace {

// Characters a path in a compiler message is made of (it ends at a blank, a
// quote, a bracket, a colon before a line number or a comma).
bool path_char(char c) {
  return c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\'' && c != '"' && c != '(' && c != ')' &&
         c != ':' && c != ',' && c != '<' && c != '>' && c != '[' && c != ']' && c != '`' &&
         static_cast<unsigned char>(c) != 0xe2;  // GCC's curly quotes start with 0xe2
}

}  // namespace

std::string scrub_paths(const std::string& text, const std::string& assembled) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    // A path starts with '/' (or "~/") where a word starts.
    const bool word_start = i == 0 || !path_char(text[i - 1]) || text[i - 1] == '=';
    const size_t slash = text[i] == '~' ? i + 1 : i;
    size_t end = slash;
    while (end < text.size() && path_char(text[end])) ++end;
    const std::string path = text.substr(i, end - i);
    // A path: "/x.../y" (two parts at least; not "//" or "/ "), or "~/y".
    const bool starts = word_start && slash < text.size() && text[slash] == '/' && slash + 1 < text.size() &&
                        text[slash + 1] != '/' && path_char(text[slash + 1]) &&
                        (text[i] == '~' || path.find('/', 1) != std::string::npos);
    if (!starts) {
      out += text[i++];
      continue;
    }
    std::string last = path.substr(path.rfind('/') + 1);
    if (last == assembled) last = "the prelude";
    out += last.empty() ? "(a folder)" : last;
    i = end;
  }
  // A relative mention of the assembled file (the compiler's own argument).
  for (size_t at = 0; (at = out.find(assembled, at)) != std::string::npos;) {
    const bool alone = (at == 0 || !path_char(out[at - 1])) &&
                       (at + assembled.size() == out.size() || !path_char(out[at + assembled.size()]));
    if (alone) out.replace(at, assembled.size(), "the prelude"), at += 11;
    else at += assembled.size();
  }
  return out;
}

}  // namespace cv::sandbox
