#pragma once
// A test's evaluator for the integer PTX the guard's loop checks use and
// for simple loops (tests/app/test_guard_loops.cpp): registers as 64-bit
// words, labels and predicated branches, ld.const from cv_guard_table, and
// global / shared accesses recorded (loads give 0). Enough to run a loop's
// check and, beside it, the loop itself, and compare what each says.
#include <cstdint>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "usercode/guard/guard_abi.h"
#include "usercode/guard/ptx_loops.h"
#include "usercode/guard/ptx_text.h"

namespace cv::usercode::guard::test {

// cv_guard_table as the evaluator reads it (PtxEval::table): 64-bit words.
inline std::vector<uint64_t> table_words(const Table& t) {
  std::vector<uint64_t> w(sizeof t / 8);
  std::memcpy(w.data(), &t, sizeof t);
  return w;
}

struct Touch {
  uint64_t address;
  unsigned width;
};

// The PTX split and parsed once, for many runs.
struct PtxProgram {
  explicit PtxProgram(const std::string& ptx) : pieces(split_ptx(ptx)), ins(pieces.size()), is_ins(pieces.size()) {
    for (size_t i = 0; i < pieces.size(); ++i) {
      if (pieces[i].kind == PieceKind::Label) labels[label_name(pieces[i])] = i;
      is_ins[i] = pieces[i].kind == PieceKind::Stmt && parse_instruction(pieces[i].text, ins[i]);
    }
  }
  std::vector<Piece> pieces;
  std::vector<Instruction> ins;
  std::vector<char> is_ins;
  std::map<std::string, size_t> labels;
};

class PtxEval {
 public:
  explicit PtxEval(const PtxProgram& p) : prog_(p), pieces_(p.pieces), labels_(p.labels) {}
  std::map<std::string, uint64_t> reg;
  std::vector<uint64_t> table;  // cv_guard_table as 64-bit words
  std::map<std::string, uint64_t> symbols;  // variables' addresses (shared, local depot, record)
  std::map<std::string, uint64_t> params;   // ld.param operands ("k_param_1") -> value
  static constexpr uint64_t kTable = 0x7f0000000000ull;
  static constexpr uint64_t kSink = 0x7f0000100000ull;  // cv_guard_sink
  std::vector<Touch> touched;
  std::map<std::string, long long> taken;  // branches taken, by target

  // Runs from `label` ("" for the start of the text) until it reaches a
  // label ending in one of `stops` (by a branch or by falling through;
  // returns that label), a ret ("") or `steps` instructions ("steps").
  std::string run(const std::string& label, const std::vector<std::string>& stops, long long steps) {
    auto stop = [&](const std::string& l) {
      for (const std::string& s : stops)
        if (ends(l, s)) return true;
      return false;
    };
    size_t i = label.empty() ? 0 : at(label) + 1;
    for (; i < pieces_.size() && steps > 0; ++i) {
      const Piece& p = pieces_[i];
      if (p.kind == PieceKind::Label && stop(label_name(p))) return label_name(p);
      if (!prog_.is_ins[i]) continue;
      const Instruction& ins = prog_.ins[i];
      --steps;
      if (!ins.guard.empty() && (get(ins.guard) != 0) == ins.guard_negated) continue;
      if (ins.parts[0] == "bra") {
        const std::string t = ins.operands[0];
        if (stop(t)) return t;
        ++taken[t];
        i = at(t);
        continue;
      }
      if (ins.parts[0] == "ret" || ins.parts[0] == "exit") return "";
      if (ins.parts[0] == "bar" || ins.parts[0] == "barrier") continue;  // one thread: nothing to wait for
      exec(ins);
    }
    return steps <= 0 ? "steps" : "";
  }
  size_t at(const std::string& label) const {
    auto it = labels_.find(label);
    if (it == labels_.end()) throw std::runtime_error("no label " + label);
    return it->second;
  }

 private:
  static bool ends(const std::string& s, const std::string& suffix) {
    return !suffix.empty() && s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
  }
  uint64_t get(const std::string& op) const {
    if (op == "cv_guard_table") return kTable;
    if (op == "cv_guard_sink") return kSink;
    if (auto it = symbols.find(op); it != symbols.end()) return it->second;
    if (op[0] == '%') {
      auto it = reg.find(op);
      if (it == reg.end()) throw std::runtime_error("read of unset register " + op);
      return it->second;
    }
    if (op[0] == '!') return get(op.substr(1)) ? 0 : 1;
    return static_cast<uint64_t>(op[0] == '-' ? std::stoll(op, nullptr, 0) : static_cast<long long>(std::stoull(op, nullptr, 0)));
  }
  static int bits_of(const std::string& t) {
    if (t == "pred") return 1;
    return std::stoi(t.substr(1));
  }
  static uint64_t mask(uint64_t v, int bits) { return bits >= 64 ? v : v & ((1ull << bits) - 1); }
  static int64_t sext(uint64_t v, int bits) {
    if (bits >= 64) return static_cast<int64_t>(v);
    const uint64_t m = 1ull << (bits - 1);
    return static_cast<int64_t>((mask(v, bits) ^ m) - m);
  }
  static bool compare(const std::string& c, uint64_t a, uint64_t b, const std::string& t) {
    const int n = bits_of(t);
    const bool s = t[0] == 's';
    const __int128 x = s ? sext(a, n) : static_cast<__int128>(mask(a, n));
    const __int128 y = s ? sext(b, n) : static_cast<__int128>(mask(b, n));
    if (c == "eq") return x == y;
    if (c == "ne") return x != y;
    if (c == "lt" || c == "lo") return x < y;
    if (c == "le" || c == "ls") return x <= y;
    if (c == "gt" || c == "hi") return x > y;
    if (c == "ge" || c == "hs") return x >= y;
    throw std::runtime_error("compare " + c);
  }
  std::vector<std::string> dests(const std::string& d) const {
    std::vector<std::string> out;
    std::string cur;
    for (char c : d + ",")
      if (c == ',' || c == '{' || c == '}' || c == ' ') {
        if (!cur.empty()) out.push_back(cur);
        cur.clear();
      } else {
        cur += c;
      }
    return out;
  }
  uint64_t address(const std::string& op) const {
    std::string in = op.substr(1, op.find(']') - 1);
    size_t plus = in.find('+', 1);
    uint64_t a = get(in.substr(0, plus));
    if (plus != std::string::npos) a += static_cast<uint64_t>(std::stoll(in.substr(plus + 1), nullptr, 0));
    return a;
  }
  void exec(const Instruction& ins);

  const PtxProgram& prog_;
  const std::vector<Piece>& pieces_;
  const std::map<std::string, size_t>& labels_;
};

inline void PtxEval::exec(const Instruction& ins) {
  const std::string& r = ins.parts[0];
  const std::string& t = ins.parts.back();
  const auto& o = ins.operands;
  auto set = [&](uint64_t v) { reg[o[0]] = mask(v, bits_of(t) == 1 ? 1 : bits_of(t)); };
  if (r == "ld" || r == "st" || r == "atom" || r == "red") {
    // The address is the first operand in brackets; loads and atomics write the first.
    const bool load = o[0][0] != '[';
    const std::string& a = load ? o[1] : o[0];
    unsigned vec = 1;
    for (const std::string& q : ins.parts)
      if (q == "v2" || q == "v4") vec = q[1] - '0';
    const unsigned w = vec * static_cast<unsigned>(bits_of(t) / 8);
    if (ins.parts[1] == "param") {
      reg[o[0]] = params.at(a.substr(1, a.find(']') - 1));
      return;
    }
    const uint64_t addr = address(a);
    if (ins.parts[1] == "const") {
      const uint64_t word = (addr - kTable) / 8;
      const std::vector<std::string> d = dests(o[0]);
      for (size_t k = 0; k < d.size(); ++k)
        reg[d[k]] = w == 4 ? mask(table.at(word), 32) : table.at(word + k);
      return;
    }
    touched.push_back({addr, w});
    if (load) for (const std::string& d : dests(o[0])) reg[d] = 0;
    return;
  }
  if (r == "mov" || r == "cvta") return set(get(o[1]));
  if (r == "setp") {
    const bool v = compare(ins.parts[1], get(o[1]), get(o[2]), t);
    if (ins.parts.size() == 4) {  // setp.cmp.and.type d, a, b, c
      const bool c = get(o[3]) != 0;
      reg[o[0]] = ins.parts[2] == "and" ? (v && c) : (v || c);
    } else {
      reg[o[0]] = v;
    }
    return;
  }
  const int n = t == "pred" ? 1 : bits_of(t);
  const bool s = t[0] == 's';
  auto a = [&](size_t k) { return get(o[k]); };
  if (r == "and") return set(a(1) & a(2));
  if (r == "or") return set(a(1) | a(2));
  if (r == "xor") return set(a(1) ^ a(2));
  if (r == "not") return set(~a(1));
  if (r == "add") return set(a(1) + a(2));
  if (r == "sub") return set(a(1) - a(2));
  if (r == "neg") return set(0 - a(1));
  if (r == "selp") return set(get(o[3]) ? a(1) : a(2));
  if (r == "shl") return set(a(1) << a(2));
  if (r == "shr") return set(s ? static_cast<uint64_t>(sext(a(1), n) >> a(2)) : mask(a(1), n) >> a(2));
  if (r == "div") {  // by zero: an unspecified value in PTX (no trap); all ones here
    if (!mask(a(2), n)) return set(~0ull);
    return set(s ? static_cast<uint64_t>(sext(a(1), n) / sext(a(2), n)) : mask(a(1), n) / mask(a(2), n));
  }
  if (r == "min" || r == "max") {
    const bool lt = compare("lt", a(1), a(2), t);
    return set((r == "min") == lt ? a(1) : a(2));
  }
  if (r == "mul" || r == "mad") {
    const std::string& how = ins.parts[1];
    const __int128 x = s ? sext(a(1), n) : static_cast<__int128>(mask(a(1), n));
    const __int128 y = s ? sext(a(2), n) : static_cast<__int128>(mask(a(2), n));
    const __int128 p = x * y;
    uint64_t v = how == "hi" ? static_cast<uint64_t>(p >> n) : static_cast<uint64_t>(p);
    if (r == "mad") v += a(3);
    if (how == "wide") { reg[o[0]] = v; return; }
    return set(v);
  }
  if (r == "cvt") {
    const std::string& from = ins.parts[2];
    const uint64_t v = from[0] == 's' ? static_cast<uint64_t>(sext(a(1), bits_of(from))) : mask(a(1), bits_of(from));
    reg[o[0]] = mask(v, bits_of(ins.parts[1]));
    return;
  }
  throw std::runtime_error("the evaluator does not know " + ins.opcode);
}

}  // namespace cv::usercode::guard::test
