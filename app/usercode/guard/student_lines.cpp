#include "usercode/guard/student_lines.h"

#include <sstream>

namespace cv::usercode::guard {
namespace {

std::string basename_of(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

std::set<int> student_file_ids(const std::vector<Piece>& pieces, const std::string& student_file) {
  std::set<int> ids;
  const std::string want = basename_of(student_file);
  for (const Piece& p : pieces) {
    if (p.kind != PieceKind::Directive) continue;
    const std::string t = squeeze(p.text);
    if (t.rfind(".file ", 0) != 0) continue;
    std::istringstream in(t.substr(6));
    int id = 0;
    std::string name;
    in >> id >> name;
    if (name.size() >= 2 && name.front() == '"') name = name.substr(1, name.find('"', 1) - 1);
    if (!want.empty() && basename_of(name) == want) ids.insert(id);
  }
  return ids;
}

void StudentLines::see(const std::string& directive) {
  const std::string t = squeeze(directive);
  if (t.rfind(".loc ", 0) != 0) return;
  std::istringstream in(t.substr(5));
  int file = 0, line = 0;
  in >> file >> line;
  std::string fn;
  if (const size_t f = t.find("function_name "); f != std::string::npos)
    fn = t.substr(f + 14, t.find_first_of(", ", f + 14) - f - 14);
  const Loc here{file, line};
  last_fn_at_[here] = fn;
  if (const size_t at = t.find("inlined_at "); at != std::string::npos && !fn.empty()) {
    std::istringstream in2(t.substr(at + 11));
    Loc site{0, 0};
    in2 >> site.first >> site.second;
    call_site_[fn] = site;
  }
  // Up the chain of call sites to the student's file.
  Loc at = here;
  std::string in_fn = fn;
  for (int depth = 0; depth < 32; ++depth) {
    if (files_.count(at.first) && at.second > 0) {
      line_ = at.second;
      return;
    }
    auto site = call_site_.find(in_fn);
    if (in_fn.empty() || site == call_site_.end()) return;  // not under the student's code: the line stays
    at = site->second;
    auto caller = last_fn_at_.find(at);
    in_fn = caller == last_fn_at_.end() ? std::string() : caller->second;
  }
}

}  // namespace cv::usercode::guard
