#include "usercode/compile/unrolled_loops.h"

#include <map>
#include <sstream>

#include "usercode/guard/ptx_loops.h"
#include "usercode/guard/ptx_text.h"

namespace cv::usercode {
namespace {

using guard::Instruction;
using guard::Piece;
using guard::PieceKind;

std::string last_component(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// ".loc 1 14 7", ".file 1 \"...\"": the directive `name`.
bool directive(const Piece& p, const char* name) {
  const size_t n = std::char_traits<char>::length(name);
  return p.kind == PieceKind::Directive && p.text.compare(0, n, name) == 0 && p.text.size() > n &&
         (p.text[n] == ' ' || p.text[n] == '\t');
}

// The PTX file number of the student's file (".file 1 \"/dir/kernel.cu\""), 0 when none.
int student_file(const std::vector<Piece>& pieces, const std::string& file_name) {
  for (const Piece& p : pieces) {
    if (!directive(p, ".file")) continue;
    std::istringstream in(p.text.substr(5));
    int number = 0;
    in >> number >> std::ws;
    std::string quoted;
    std::getline(in, quoted);
    const size_t open = quoted.find('"'), close = quoted.find('"', open + 1);
    if (open == std::string::npos || close == std::string::npos) continue;
    if (last_component(quoted.substr(open + 1, close - open - 1)) == last_component(file_name)) return number;
  }
  return 0;
}

// Follows .loc directives to the student's line: ".loc F L C" in the student's
// file, else the line its "inlined_at F L C" chain reaches there.
class StudentLines {
 public:
  explicit StudentLines(int file) : file_(file) {}
  int line() const { return line_; }
  void see(const std::string& loc) {  // ".loc 2 87 12, function_name $x, inlined_at 1 14 7"
    std::istringstream in(loc.substr(4));
    Where at{};
    in >> at.file >> at.line >> at.column;
    int student = at.file == file_ ? at.line : 0;
    if (const size_t p = loc.find("inlined_at"); !student && p != std::string::npos) {
      std::istringstream caller(loc.substr(p + 10));
      Where from{};
      caller >> from.file >> from.line >> from.column;
      if (from.file == file_) student = from.line;
      else if (auto it = seen_.find(from); it != seen_.end()) student = it->second;
    }
    seen_[at] = student;
    line_ = student;
  }

 private:
  struct Where {
    int file, line, column;
    bool operator<(const Where& o) const {
      return file != o.file ? file < o.file : line != o.line ? line < o.line : column < o.column;
    }
  };
  int file_;
  int line_ = 0;
  std::map<Where, int> seen_;  // a location -> the student's line it stands for
};

// A load, store or atomic that may reach global memory (not shared, local, param or const).
bool global_access(const Instruction& ins) {
  if (ins.parts.empty()) return false;
  const std::string& op = ins.parts[0];
  if (op != "ld" && op != "st" && op != "atom" && op != "red") return false;
  const std::string space = ins.parts.size() > 1 ? ins.parts[1] : "";
  return space != "shared" && space != "local" && space != "param" && space != "const";
}
bool global_write(const Instruction& ins) { return global_access(ins) && ins.parts[0] != "ld"; }

}  // namespace

std::vector<emu::UnrolledLoop> unrolled_loops(const std::string& ptx, const std::string& file_name) {
  const std::vector<Piece> pieces = guard::split_ptx(ptx);
  const int file = student_file(pieces, file_name);
  if (!file) return {};
  const std::vector<guard::Loop> loops = guard::find_loops(pieces, 0, pieces.size());
  auto innermost = [&](size_t at) {  // the loop holding piece `at` most closely, -1: none
    int best = -1;
    for (size_t i = 0; i < loops.size(); ++i)
      if (loops[i].header < at && at <= loops[i].latch && (best < 0 || loops[i].header > loops[best].header))
        best = static_cast<int>(i);
    return best;
  };
  auto top_level = [&](int l) {
    for (const guard::Loop& o : loops)
      if (o.header < loops[l].header && loops[l].latch <= o.latch) return false;
    return true;
  };
  StudentLines lines(file);
  std::map<int, std::map<int, unsigned>> copies;  // line -> loop (-1: none) -> its accesses there
  for (size_t i = 0; i < pieces.size(); ++i) {
    if (directive(pieces[i], ".loc")) lines.see(pieces[i].text);
    Instruction ins;
    if (pieces[i].kind != PieceKind::Stmt || !parse_instruction(pieces[i].text, ins) || !global_access(ins)) continue;
    if (lines.line() > 0) ++copies[lines.line()][innermost(i)];
  }
  auto stores_in = [&](int l) {
    for (size_t i = loops[l].header; i <= loops[l].latch; ++i) {
      Instruction ins;
      if (pieces[i].kind == PieceKind::Stmt && parse_instruction(pieces[i].text, ins) && global_write(ins)) return true;
    }
    return false;
  };
  std::vector<emu::UnrolledLoop> out;
  for (const auto& [line, in_loops] : copies) {
    if (in_loops.size() != 2 || in_loops.count(-1)) continue;
    auto [a, na] = *in_loops.begin();
    auto [b, nb] = *std::next(in_loops.begin());
    if (!top_level(a) || !top_level(b)) continue;
    const bool a_is_body = na > nb;
    const unsigned body = a_is_body ? na : nb, rest = a_is_body ? nb : na;
    if (rest == 0 || body % rest || body / rest < 2) continue;
    const int remainder = a_is_body ? b : a, unrolled = a_is_body ? a : b;
    out.push_back({line, body / rest, loops[remainder].header < loops[unrolled].header, stores_in(unrolled)});
  }
  return out;
}

}  // namespace cv::usercode
