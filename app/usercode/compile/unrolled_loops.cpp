#include "usercode/compile/unrolled_loops.h"

#include <map>

#include "usercode/guard/ptx_loops.h"
#include "usercode/guard/ptx_text.h"
#include "usercode/guard/student_lines.h"

namespace cv::usercode {
namespace {

using guard::Instruction;
using guard::Piece;
using guard::PieceKind;

// A load, store or atomic that may reach global memory: of the global space
// or generic (through a pointer), not shared, local, param or const.
bool global_access(const Instruction& ins) {
  if (ins.parts.empty() || !guard::is_memory_root(ins.parts[0])) return false;
  std::string space;
  guard::access_shape(ins, space);
  return space == "global" || space == "generic";
}
bool global_write(const Instruction& ins) {
  return global_access(ins) && ins.parts[0] != "ld" && ins.parts[0] != "ldu";
}

}  // namespace

std::vector<emu::UnrolledLoop> unrolled_loops(const std::string& ptx, const std::string& file_name) {
  const std::vector<Piece> pieces = guard::split_ptx(ptx);
  std::set<int> files = guard::student_file_ids(pieces, file_name);
  if (files.empty()) return {};
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
  guard::StudentLines lines(std::move(files));
  std::map<int, std::map<int, unsigned>> copies;  // line -> loop (-1: none) -> its accesses there
  for (size_t i = 0; i < pieces.size(); ++i) {
    if (pieces[i].kind == PieceKind::Directive) lines.see(pieces[i].text);
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
