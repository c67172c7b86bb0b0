#include "usercode/guard/address_facts.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <iterator>

#include "usercode/guard/ptx_loops.h"

namespace cv::usercode::guard {
namespace {

// Registers an instruction writes: the '%' names of its first operand,
// unless that operand is an address.
std::vector<std::string> dests(const Instruction& ins) {
  std::vector<std::string> out;
  if (ins.operands.empty() || ins.operands[0].empty() || ins.operands[0][0] == '[') return out;
  if (ins.parts[0] == "st" || ins.parts[0] == "red" || ins.parts[0] == "bra" || ins.parts[0] == "bar" ||
      ins.parts[0] == "barrier")
    return out;
  std::string tok;
  for (char c : ins.operands[0] + " ") {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '%' || c == '$') {
      tok += c;
      continue;
    }
    if (!tok.empty() && tok[0] == '%') out.push_back(tok);
    tok.clear();
  }
  return out;
}

int zeros_of(unsigned long long v) {
  if (!v) return 64;
  int n = 0;
  while (!(v & 1)) v >>= 1, ++n;
  return n;
}

bool immediate(const std::string& s, unsigned long long& v) {
  if (s.empty() || !(std::isdigit(static_cast<unsigned char>(s[0])) || s[0] == '-')) return false;
  std::string t = s;
  if (t.back() == 'U') t.pop_back();
  char* end = nullptr;
  errno = 0;
  v = t[0] == '-' ? static_cast<unsigned long long>(std::strtoll(t.c_str(), &end, 0)) : std::strtoull(t.c_str(), &end, 0);
  return !*end && !errno;
}

bool terminates(const Instruction& ins) {
  const std::string& r = ins.parts[0];
  return r == "bra" || r == "brx" || r == "ret" || r == "exit";
}

struct Block {
  size_t first = 0, last = 0;  // piece range [first, last]
  std::vector<size_t> succ;
};

using Code = std::map<size_t, Instruction>;                // piece -> its instruction
using Defs = std::map<std::string, std::vector<size_t>>;  // register -> the pieces that write it

// Low zero bits one definition gives, from the current estimate of every
// register's. A register rooted at a parameter counts those of its offset
// from that pointer: an operand rooted at the same parameter brings its
// offset's, one not rooted its own value's.
class ZeroRules {
 public:
  ZeroRules(const Code& ins, const std::map<std::string, int>& roots,
            const std::map<std::string, unsigned>& symbol_align, const std::map<std::string, int>& zeros)
      : ins_(ins), roots_(roots), align_(symbol_align), zeros_(zeros) {}

  int of_definition(size_t at, const std::string& reg) const {
    const Instruction& x = ins_.at(at);
    const std::string& r = x.parts[0];
    const auto& o = x.operands;
    const int mine = root(reg);
    auto operand = [&](size_t k) -> int {
      if (k >= o.size()) return 0;
      const int theirs = root(o[k]);
      if (mine >= 0 && theirs == mine) return z(o[k]);
      if (theirs >= 0) return 0;  // a pointer's value: its alignment is not known here
      return z(o[k]);
    };
    if (mine >= 0 && r == "ld" && x.parts.size() >= 2 && x.parts[1] == "param") return 64;  // the pointer itself
    if (dests(x).size() != 1) return 0;
    const int bits = x.parts.size() >= 2 ? static_cast<int>(type_bytes(x.parts.back()) * 8) : 64;
    auto cap = [&](int v) { return std::min(v, bits ? bits : 64); };
    if (r == "mov" || r == "cvta" || r == "cvt" || r == "neg") return o.size() == 2 ? cap(operand(1)) : 0;
    if ((r == "add" || r == "sub" || r == "or" || r == "xor") && o.size() == 3)
      return cap(std::min(operand(1), operand(2)));
    if (r == "selp" && o.size() == 4) return cap(std::min(operand(1), operand(2)));
    if (r == "and" && o.size() == 3) return cap(std::max(operand(1), operand(2)));
    if (r == "shl" && o.size() == 3) {
      unsigned long long k = 0;
      return immediate(o[2], k) && k < 64 ? cap(operand(1) + static_cast<int>(k)) : 0;
    }
    if ((r == "mul" || r == "mad") && o.size() >= 3 && x.parts.size() >= 3 &&
        (x.parts[1] == "lo" || x.parts[1] == "wide")) {
      // Only the product's low bits are of use: a product that is not rooted.
      const int p = std::min(64, (root(o[1]) >= 0 ? 0 : z(o[1])) + (root(o[2]) >= 0 ? 0 : z(o[2])));
      const int w = x.parts[1] == "wide" ? 64 : cap(p);
      return r == "mul" ? std::min(p, w) : o.size() == 4 ? std::min(std::min(p, w), operand(3)) : 0;
    }
    return 0;
  }

 private:
  int root(const std::string& r) const {
    auto it = roots_.find(r);
    return it == roots_.end() ? -1 : it->second;
  }
  int z(const std::string& op) const {
    unsigned long long v = 0;
    if (immediate(op, v)) return zeros_of(v);
    if (!op.empty() && op[0] == '%') {
      auto it = zeros_.find(op);
      return it == zeros_.end() ? 0 : it->second;
    }
    auto s = align_.find(op);  // a variable's address
    return s == align_.end() ? 0 : zeros_of(std::max(1u, s->second));
  }

  const Code& ins_;
  const std::map<std::string, int>& roots_;
  const std::map<std::string, unsigned>& align_;
  const std::map<std::string, int>& zeros_;
};

// Low zero bits of every register, to a fixed point from "all known" downwards.
std::map<std::string, int> low_zeros(const Code& ins, const Defs& defs, const std::map<std::string, int>& roots,
                                     const std::map<std::string, unsigned>& symbol_align) {
  std::map<std::string, int> zeros;
  for (const auto& [r, at] : defs) zeros[r] = 64;
  const ZeroRules rules(ins, roots, symbol_align, zeros);
  for (int round = 0; round < 64; ++round) {
    bool changed = false;
    for (const auto& [reg, at] : defs) {
      int v = 64;
      for (size_t a : at) v = std::min(v, rules.of_definition(a, reg));
      if (v < zeros[reg]) zeros[reg] = v, changed = true;
    }
    if (!changed) break;
  }
  return zeros;
}

// The function's basic blocks and their successors; empty when labels repeat
// (names scoped in { } blocks: nothing is said about definitions then).
std::vector<Block> blocks_of(const std::vector<Piece>& pieces, size_t begin, size_t end, const Code& ins) {
  std::vector<Block> blocks;
  std::map<std::string, size_t> label_block;
  bool after_jump = false;
  for (size_t i = begin; i < end; ++i) {
    const bool label = pieces[i].kind == PieceKind::Label;
    if (blocks.empty() || label || (after_jump && ins.count(i))) blocks.push_back({i, i, {}}), after_jump = false;
    blocks.back().last = i;
    if (auto it = ins.find(i); it != ins.end()) after_jump = terminates(it->second);
    if (label && !label_block.emplace(label_name(pieces[i]), blocks.size() - 1).second) return {};
  }
  for (size_t b = 0; b < blocks.size(); ++b) {
    size_t last = blocks[b].last;
    while (last > blocks[b].first && !ins.count(last)) --last;
    const Instruction* t = ins.count(last) ? &ins.at(last) : nullptr;
    const bool falls = !t || !terminates(*t) || !t->guard.empty();
    if (falls && b + 1 < blocks.size()) blocks[b].succ.push_back(b + 1);
    if (t && t->parts[0] == "bra" && !t->operands.empty()) {
      auto it = label_block.find(t->operands[0]);
      if (it != label_block.end()) blocks[b].succ.push_back(it->second);
    }
    if (t && t->parts[0] == "brx")
      for (size_t k = 0; k < blocks.size(); ++k) blocks[b].succ.push_back(k);
  }
  return blocks;
}

// Registers written on every way from the start to each asked piece: a
// forward "must" analysis (in = intersection of the predecessors' out).
std::map<size_t, std::set<std::string>> defined_on_every_way(const std::vector<Block>& blocks, const Code& ins,
                                                            const std::set<size_t>& asked) {
  std::vector<std::set<std::string>> in(blocks.size()), out(blocks.size());
  std::vector<bool> top(blocks.size(), true);
  auto written = [&](size_t b, size_t upto, std::set<std::string> s) {
    for (size_t i = blocks[b].first; i < upto; ++i)
      if (auto it = ins.find(i); it != ins.end() && it->second.guard.empty())
        for (const std::string& r : dests(it->second)) s.insert(r);
    return s;
  };
  std::vector<std::vector<size_t>> preds(blocks.size());
  for (size_t b = 0; b < blocks.size(); ++b)
    for (size_t s : blocks[b].succ) preds[s].push_back(b);
  if (!blocks.empty()) top[0] = false, out[0] = written(0, blocks[0].last + 1, {});
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t b = 1; b < blocks.size(); ++b) {
      bool any = false;
      std::set<std::string> meet;
      for (size_t p : preds[b]) {
        if (top[p]) continue;
        if (!any) meet = out[p], any = true;
        else {
          std::set<std::string> both;
          std::set_intersection(meet.begin(), meet.end(), out[p].begin(), out[p].end(), std::inserter(both, both.end()));
          meet.swap(both);
        }
      }
      if (!any) continue;
      std::set<std::string> o = written(b, blocks[b].last + 1, meet);
      if (top[b] || o != out[b] || meet != in[b]) top[b] = false, out[b] = std::move(o), in[b] = std::move(meet), changed = true;
    }
  }
  std::map<size_t, std::set<std::string>> at;
  for (size_t b = 0; b < blocks.size(); ++b)
    for (size_t a : asked)
      if (a >= blocks[b].first && a <= blocks[b].last && !top[b]) at[a] = written(b, a, in[b]);
  return at;
}

}  // namespace

int AddressFacts::zeros_at(const std::string& reg, size_t at) const {
  auto d = defined_at.find(at);
  if (d == defined_at.end() || !d->second.count(reg)) return 0;
  auto z = zeros.find(reg);
  return z == zeros.end() ? 0 : z->second;
}

AddressFacts address_facts(const std::vector<Piece>& pieces, size_t begin, size_t end,
                           const std::map<std::string, int>& roots,
                           const std::map<std::string, unsigned>& symbol_align, const std::set<size_t>& asked) {
  AddressFacts f;
  Code ins;
  Defs defs;
  for (size_t i = begin; i < end; ++i) {
    Instruction x;
    if (pieces[i].kind != PieceKind::Stmt || !parse_instruction(pieces[i].text, x)) continue;
    for (const std::string& r : dests(x)) defs[r].push_back(i);
    ins[i] = std::move(x);
  }
  f.zeros = low_zeros(ins, defs, roots, symbol_align);
  const std::vector<Block> blocks = blocks_of(pieces, begin, end, ins);
  if (!blocks.empty()) f.defined_at = defined_on_every_way(blocks, ins, asked);
  return f;
}

}  // namespace cv::usercode::guard
