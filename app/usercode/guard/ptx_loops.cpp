#include "usercode/guard/ptx_loops.h"

#include <algorithm>
#include <map>

namespace cv::usercode::guard {

std::string label_name(const Piece& p) {
  std::string t = squeeze(p.text);
  if (!t.empty() && t.back() == ':') t.pop_back();
  return t;
}

std::string branch_target(const Instruction& ins) {
  if (ins.parts.empty() || ins.parts[0] != "bra" || ins.operands.empty()) return "";
  return ins.operands[0];
}

bool warp_wide(const std::string& root) {
  static const char* const kWide[] = {"bar",   "barrier", "shfl",  "vote",      "match",      "redux",
                                      "activemask", "elect", "mma", "movmatrix", "setmaxnreg", "wmma",
                                      "wgmma", "bar.warp"};
  for (const char* w : kWide)
    if (root == w) return true;
  return false;
}

bool copies_may_meet(const Instruction& ins) {
  const std::vector<std::string>& q = ins.parts;
  auto has = [&](const char* w) { return std::find(q.begin(), q.end(), w) != q.end(); };
  if (q[0] == "bar" || q[0] == "barrier") {
    if (has("warp")) return has("sync");  // bar.warp.sync: by its member mask
    return !has("cluster") && (has("sync") || has("arrive") || has("red"));
  }
  return (q[0] == "shfl" || q[0] == "vote" || q[0] == "match" || q[0] == "redux") && has("sync") && !has("aligned");
}

std::string unaligned_barrier(const std::string& stmt) {
  Instruction ins;
  if (!parse_instruction(stmt, ins) || (ins.parts[0] != "bar" && ins.parts[0] != "barrier") ||
      std::find(ins.parts.begin(), ins.parts.end(), "warp") != ins.parts.end())
    return stmt;
  std::string op = "barrier";
  for (size_t k = 1; k < ins.parts.size(); ++k)
    if (ins.parts[k] != "aligned") op += "." + ins.parts[k];
  std::string args;
  for (const std::string& o : ins.operands) args += (args.empty() ? " " : ", ") + o;
  const std::string g = ins.guard.empty() ? "" : "@" + std::string(ins.guard_negated ? "!" : "") + ins.guard + " ";
  return "\t" + g + op + args + ";";
}

namespace {

// Why loop [h, e] cannot be versioned ("" when it can).
std::string check_loop(const std::vector<Piece>& pieces, size_t h, size_t e, const std::string& label,
                       const std::map<std::string, size_t>& labels,
                       const std::vector<std::pair<size_t, std::string>>& branches) {
  for (const auto& [at, target] : branches) {
    auto it = labels.find(target);
    if (it == labels.end()) continue;
    const size_t to = it->second;
    const bool from_inside = at > h && at <= e, to_inside = to > h && to <= e;
    if (!from_inside && to_inside) return "a branch from outside jumps into its body";
    if (from_inside && at != e && to == h) return "it goes back to its start from more than one place";
    if (from_inside && to_inside && to <= at) return "it holds another loop";
  }
  for (size_t i = h + 1; i <= e; ++i) {
    const Piece& p = pieces[i];
    if (p.kind == PieceKind::Open || p.kind == PieceKind::Close || p.kind == PieceKind::Header ||
        p.kind == PieceKind::Raw)
      return "it holds a { } block";
    if (p.kind != PieceKind::Stmt) continue;
    Instruction ins;
    if (!parse_instruction(p.text, ins)) {
      if (squeeze(p.text).rfind(".pragma", 0) != 0) return "it declares something";
      continue;
    }
    if (ins.parts[0] == "brx") return "it holds a jump table";
    if (warp_wide(ins.parts[0]) && !copies_may_meet(ins))
      return "it holds " + ins.opcode + ", which a whole warp or block must meet at the same instruction";
  }
  (void)label;
  return "";
}

}  // namespace

std::vector<Loop> find_loops(const std::vector<Piece>& pieces, size_t begin, size_t end) {
  std::map<std::string, size_t> labels;
  std::vector<std::pair<size_t, std::string>> branches;
  for (size_t i = begin; i < end; ++i) {
    if (pieces[i].kind == PieceKind::Label) labels[label_name(pieces[i])] = i;
    Instruction ins;
    if (pieces[i].kind == PieceKind::Stmt && parse_instruction(pieces[i].text, ins))
      if (std::string t = branch_target(ins); !t.empty()) branches.emplace_back(i, t);
  }
  std::vector<Loop> out;
  for (const auto& [at, target] : branches) {
    auto it = labels.find(target);
    if (it == labels.end() || it->second >= at) continue;
    // Only the last back edge to a label makes a loop (an earlier one is refused by check_loop).
    bool last = true;
    for (const auto& [at2, t2] : branches) last = last && !(t2 == target && at2 > at);
    if (!last) continue;
    Loop l;
    l.header = it->second, l.latch = at, l.label = target;
    l.why_not = check_loop(pieces, l.header, l.latch, target, labels, branches);
    l.versionable = l.why_not.empty();
    out.push_back(l);
  }
  std::sort(out.begin(), out.end(), [](const Loop& a, const Loop& b) { return a.header < b.header; });
  return out;
}

// The guard's loop over the table's entries (check_code.cpp): part of a check.
static bool table_scan(const std::string& label) {
  return label.rfind("$cv", 0) == 0 && label.size() > 5 && label.compare(label.size() - 5, 5, "_loop") == 0;
}

LoopFigures innermost_loop_figures(const std::string& ptx) {
  const std::vector<Piece> pieces = split_ptx(ptx);
  LoopFigures f;
  for (const Loop& l : find_loops(pieces, 0, pieces.size())) {
    // The guard's own loops (table scans, guarded copies) are not the hot path.
    if (l.label.rfind("$cv", 0) == 0 && l.label.find("_fast") == std::string::npos) continue;
    size_t ins_count = 0, bra = 0;
    bool inner = false;
    for (size_t i = l.header + 1; i <= l.latch; ++i) {
      Instruction ins;
      if (pieces[i].kind != PieceKind::Stmt || !parse_instruction(pieces[i].text, ins)) continue;
      ++ins_count;
      bra += ins.parts[0] == "bra";
      if (std::string t = branch_target(ins); !t.empty())
        for (size_t k = l.header + 1; k < i && !inner; ++k)
          inner = pieces[k].kind == PieceKind::Label && label_name(pieces[k]) == t && !table_scan(t);
    }
    if (inner) continue;
    ++f.loops, f.instructions += ins_count, f.branches += bra;
  }
  return f;
}

}  // namespace cv::usercode::guard
