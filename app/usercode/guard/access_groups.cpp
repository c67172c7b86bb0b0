#include "usercode/guard/access_groups.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace cv::usercode::guard {
namespace {

// Control flow ends a straight run: what follows may be reached another way.
// So does an instruction a whole warp or block must meet at the same place
// (barriers, warp shuffles and votes, mma): threads whose group check passes
// and threads whose check fails run different copies of the run, and such an
// instruction must not be split between them.
bool ends_run(const std::string& root) {
  static const char* const kEnds[] = {"bra",  "brx",   "ret",   "exit",       "call",  "bar",
                                      "barrier", "shfl", "vote", "match", "redux", "activemask",
                                      "elect", "mma",  "movmatrix", "setmaxnreg"};
  for (const char* e : kEnds)
    if (root == e) return true;
  return false;
}

bool ends_run(PieceKind k) {
  return k == PieceKind::Label || k == PieceKind::Open || k == PieceKind::Close ||
         k == PieceKind::Header || k == PieceKind::Raw;
}

void add(AccessGroup& g, size_t piece, const GroupMember& m) {
  if (g.members.empty()) {
    g.first = piece, g.space = m.space, g.base = m.base, g.base32 = m.base32;
    g.lo = m.offset, g.hi = m.offset + m.width;
  }
  g.last = piece;
  g.members.push_back(piece);
  g.lo = std::min(g.lo, m.offset);
  g.hi = std::max(g.hi, m.offset + static_cast<long long>(m.width));
  g.align = std::max(g.align, m.width);
}

}  // namespace

bool may_write(const Instruction& ins, const std::string& reg) {
  if (ins.operands.empty()) return false;
  const std::string& d = ins.operands[0];
  if (d.empty() || d[0] == '[') return false;  // st / red / prefetch: an address, not a destination
  std::string token;
  for (char c : d + " ") {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '%' || c == '$' || c == '.') {
      token += c;
      continue;
    }
    if (token == reg) return true;
    token.clear();
  }
  return false;
}

std::vector<AccessGroup> find_groups(
    const std::vector<Piece>& pieces, size_t begin, size_t end,
    const std::function<std::optional<GroupMember>(size_t, const Instruction&)>& member) {
  std::vector<AccessGroup> found;
  std::map<std::string, AccessGroup> open;  // by base register
  auto close = [&](std::map<std::string, AccessGroup>::iterator it) {
    if (it->second.members.size() >= 2) found.push_back(std::move(it->second));
    return open.erase(it);
  };
  auto close_all = [&] {
    for (auto it = open.begin(); it != open.end();) it = close(it);
  };
  for (size_t i = begin; i < end; ++i) {
    const Piece& p = pieces[i];
    Instruction ins;
    if (p.kind != PieceKind::Stmt || !parse_instruction(p.text, ins)) {
      // A declaration or pragma is not copied twice: it ends the run too.
      if (ends_run(p.kind) || p.kind == PieceKind::Stmt) close_all();
      continue;
    }
    if (ends_run(ins.parts[0])) {
      close_all();
      continue;
    }
    // The address is read before the instruction writes anything: a member
    // first, then the groups whose base it may overwrite end.
    if (std::optional<GroupMember> m = member(i, ins); m && m->width && m->offset % m->width == 0) {
      auto it = open.find(m->base);
      if (it != open.end() && (it->second.space != m->space || it->second.base32 != m->base32)) close(it);
      add(open[m->base], i, *m);
    }
    for (auto it = open.begin(); it != open.end();)
      it = may_write(ins, it->first) ? close(it) : std::next(it);
  }
  close_all();
  // Larger groups first, none overlapping another.
  std::stable_sort(found.begin(), found.end(), [](const AccessGroup& a, const AccessGroup& b) {
    return a.members.size() > b.members.size();
  });
  std::vector<AccessGroup> kept;
  for (AccessGroup& g : found) {
    const bool overlaps = std::any_of(kept.begin(), kept.end(), [&](const AccessGroup& k) {
      return g.first <= k.last && k.first <= g.last;
    });
    if (!overlaps) kept.push_back(std::move(g));
  }
  std::sort(kept.begin(), kept.end(), [](const AccessGroup& a, const AccessGroup& b) { return a.first < b.first; });
  return kept;
}

}  // namespace cv::usercode::guard
