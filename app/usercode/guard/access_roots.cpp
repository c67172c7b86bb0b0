#include "usercode/guard/access_roots.h"

#include <cstdlib>
#include <set>

#include "usercode/guard/guard_abi.h"

namespace cv::usercode::guard {
namespace {

constexpr int kTop = -2;   // no definition seen yet
constexpr int kNone = -1;  // not one parameter's pointer

// "[name_param_3]" or "[name_param_3+0]" -> 3; -1 otherwise.
int param_index(const std::string& operand) {
  if (operand.size() < 3 || operand.front() != '[') return -1;
  std::string in = operand.substr(1, operand.find(']') - 1);
  if (const size_t plus = in.find('+'); plus != std::string::npos) {
    if (std::strtoll(in.substr(plus + 1).c_str(), nullptr, 0) != 0) return -1;  // not the pointer's bytes
    in = in.substr(0, plus);
  }
  const size_t at = in.rfind("_param_");
  if (at == std::string::npos || at + 7 >= in.size()) return -1;
  char* end = nullptr;
  const long j = std::strtol(in.c_str() + at + 7, &end, 10);
  return *end ? -1 : static_cast<int>(j);
}

// The checked accessors' stand-in for an index out of range (cudaviz.h
// Span::access): the register a checked s[i] loads through is the parameter's
// pointer plus i on one way in and this on the other, only after the index was
// found out of range. It does not outvote the parameter (it counts as no
// definition): the hint puts that parameter's buffer first, and the stand-in
// is found in the table's scan like any other address (docs/guard.md).
bool stand_in(const Instruction& d) {
  return d.parts[0] == "mov" && d.operands.size() == 2 && d.operands[1] == kScratchName;
}

}  // namespace

std::map<std::string, int> parameter_roots(const std::vector<Piece>& pieces, size_t begin, size_t end) {
  std::vector<Instruction> defs;
  for (size_t i = begin; i < end; ++i) {
    Instruction ins;
    if (pieces[i].kind == PieceKind::Stmt && parse_instruction(pieces[i].text, ins) && ins.operands.size() >= 2 &&
        !ins.operands[0].empty() && ins.operands[0][0] == '%')
      defs.push_back(std::move(ins));
  }
  std::map<std::string, int> root;
  std::set<std::string> defined;
  for (const Instruction& d : defs) defined.insert(d.operands[0]);
  auto of = [&](const std::string& op) {
    // An immediate, a symbol or a register defined nowhere here: not a parameter's pointer.
    if (op.empty() || op[0] != '%' || !defined.count(op)) return kNone;
    auto it = root.find(op);
    return it == root.end() ? kTop : it->second;
  };
  // What one definition makes of its register; kTop when it depends on a register not yet known.
  auto value = [&](const Instruction& d) {
    const std::string& r = d.parts[0];
    const std::vector<std::string>& o = d.operands;
    if (r == "ld" && d.parts.size() >= 2 && d.parts[1] == "param") {
      const int j = param_index(o[1]);
      return j >= 0 && (d.opcode == "ld.param.u64" || d.opcode == "ld.param.b64") ? j : kNone;
    }
    if (stand_in(d)) return kTop;
    if ((r == "cvta" && d.opcode == "cvta.to.global.u64") || (r == "mov" && d.parts.size() == 2 && d.parts[1] != "pred"))
      return of(o[1]);
    if ((r == "add" || r == "sub") && o.size() == 3 && d.parts.size() == 2 && (d.parts[1] == "s64" || d.parts[1] == "u64")) {
      const int a = of(o[1]), b = of(o[2]);
      if (a == kTop || b == kTop) return kTop;
      if (r == "sub") return b == kNone ? a : kNone;
      if (a >= 0 && b == kNone) return a;
      if (b >= 0 && a == kNone) return b;
      return kNone;
    }
    if (r == "mad" && o.size() == 4 && d.parts.size() == 3 && d.parts[1] == "wide") return of(o[3]);
    return kNone;
  };
  // To a fixed point: a register's root is the one all its definitions give.
  for (int round = 0; round < 16; ++round) {
    bool changed = false;
    std::map<std::string, int> next;
    for (const Instruction& d : defs) {
      const int v = value(d);
      for (const std::string& reg : {d.operands[0]}) {
        auto [it, fresh] = next.emplace(reg, v);
        if (!fresh && it->second != v) it->second = it->second == kTop ? v : v == kTop ? it->second : kNone;
      }
    }
    for (auto& [reg, v] : next)
      if (root.emplace(reg, v).second || root[reg] != v) root[reg] = v, changed = true;
    if (!changed) break;
  }
  std::map<std::string, int> out;
  for (const auto& [reg, v] : root)
    if (v >= 0) out[reg] = v;
  return out;
}

}  // namespace cv::usercode::guard
