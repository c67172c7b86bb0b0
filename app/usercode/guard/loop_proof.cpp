#include "usercode/guard/loop_proof.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <sstream>

#include "usercode/guard/check_code.h"

namespace cv::usercode::guard {

std::string LoopScratch::declarations() const {
  std::string s;
  if (p) s += "\t.reg .pred %cvl_p<" + std::to_string(p) + ">;\n";
  if (r) s += "\t.reg .b32 %cvl_r<" + std::to_string(r) + ">;\n";
  if (d) s += "\t.reg .b64 %cvl_d<" + std::to_string(d) + ">;\n";
  return s;
}

namespace {

// An operand of the check's arithmetic: an immediate or a register.
struct Val {
  bool imm = true;
  long long v = 0;
  std::string reg;
};
Val imm(long long v) { return {true, v, ""}; }
bool is_zero(const Val& v) { return v.imm && v.v == 0; }
long long wrap(long long v, int bits) { return bits == 32 ? static_cast<int32_t>(static_cast<uint32_t>(v)) : v; }

// A value that is base + step * k (mod 2^bits) in iteration k of the loop.
struct Lin {
  int bits = 64;
  Val base, step;
};

std::optional<long long> parse_imm(const std::string& s) {
  if (s.empty() || !(std::isdigit(static_cast<unsigned char>(s[0])) || s[0] == '-')) return std::nullopt;
  std::string t = s;
  if (t.back() == 'U') t.pop_back();
  char* end = nullptr;
  errno = 0;
  long long v = t[0] == '-' ? std::strtoll(t.c_str(), &end, 0)
                            : static_cast<long long>(std::strtoull(t.c_str(), &end, 0));
  if (*end || errno) return std::nullopt;
  return v;
}

// Registers an instruction writes: the '%' names of its first operand,
// unless that operand is an address.
std::vector<std::string> written(const Instruction& ins) {
  std::vector<std::string> out;
  if (ins.operands.empty() || ins.operands[0].empty() || ins.operands[0][0] == '[') return out;
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

// Address steps up to this (bytes a trip) times a trip count below 2^32 stay
// below 2^60: their product needs no overflow test.
constexpr long long kSmallStep = 1ll << 28;

int type_bits(const std::string& t) {
  if (t == "s32" || t == "u32" || t == "b32") return 32;
  if (t == "s64" || t == "u64" || t == "b64") return 64;
  return 0;
}

class Prover {
 public:
  Prover(const std::vector<Piece>& pieces, const Loop& loop, LoopScratch& s)
      : pieces_(pieces), loop_(loop), s_(s) {
    for (size_t i = loop.header + 1; i <= loop.latch; ++i) {
      const Piece& p = pieces[i];
      if (p.kind == PieceKind::Label) labels_.push_back(i);
      Instruction ins;
      if (p.kind != PieceKind::Stmt || !parse_instruction(p.text, ins)) continue;
      if (!branch_target(ins).empty()) branches_.push_back(i);
      for (const std::string& r : written(ins)) defs_[r].push_back(i);
      ins_[i] = std::move(ins);
    }
    find_ivs();
  }

  std::optional<LoopProof> prove(const std::vector<LoopAccess>& accesses);

 private:
  struct Range {  // accesses through one register holding one value
    std::vector<const LoopAccess*> members;
    long long lo = 0, hi = 0;
    unsigned align = 1;
  };
  bool prove_range(const Range& r, LoopProof& out);
  struct IV {
    size_t at = 0;
    int bits = 64;
    std::string step;  // immediate or invariant register, as written
    bool subtract = false;
  };

  bool label_in(size_t a, size_t b) const {  // a label in (a, b)
    return std::any_of(labels_.begin(), labels_.end(), [&](size_t l) { return l > a && l < b; });
  }
  // Executed once on every way from the header to the branch back.
  bool every_iteration(size_t q) const {
    if (!label_in(q, loop_.latch + 1)) return true;  // in the last block
    if (label_in(loop_.header, q)) return false;
    return std::none_of(branches_.begin(), branches_.end(), [&](size_t b) {
      if (b >= q) return false;
      for (size_t l : labels_)
        if (label_name(pieces_[l]) == branch_target(ins_.at(b))) return true;
      return false;
    });
  }
  bool invariant(const std::string& reg) const { return !defs_.count(reg); }
  bool operand_ok(const std::string& op) const {
    return parse_imm(op) || (op.size() > 1 && op[0] == '%' && invariant(op));
  }

  void find_ivs() {
    for (const auto& [reg, at] : defs_) {
      if (at.size() != 1 || !every_iteration(at[0])) continue;
      const Instruction& ins = ins_.at(at[0]);
      if (!ins.guard.empty() || ins.parts.size() != 2 || ins.operands.size() != 3) continue;
      const bool add = ins.parts[0] == "add", sub = ins.parts[0] == "sub";
      const int bits = type_bits(ins.parts[1]);
      if ((!add && !sub) || !bits || ins.parts[1][0] == 'b') continue;
      const std::string& a = ins.operands[1];
      const std::string& b = ins.operands[2];
      if (a == reg && operand_ok(b)) ivs_[reg] = {at[0], bits, b, sub};
      else if (add && b == reg && operand_ok(a)) ivs_[reg] = {at[0], bits, a, false};
    }
    // Halved once a trip (a block tree's `h /= 2`): unsigned, so every value
    // it takes in the loop lies between 0 and its value on entry.
    for (const auto& [reg, at] : defs_) {
      if (at.size() != 1 || !every_iteration(at[0])) continue;
      const Instruction& ins = ins_.at(at[0]);
      if (!ins.guard.empty() || ins.parts.size() != 2 || ins.operands.size() != 3 || ins.operands[1] != reg) continue;
      const auto k = parse_imm(ins.operands[2]);
      const int bits = type_bits(ins.parts[1]);
      if (bits && ((ins.parts[0] == "shr" && ins.parts[1][0] == 'u' && k && *k >= 1 && *k < bits) ||
                   (ins.parts[0] == "div" && ins.parts[1][0] == 'u' && k && *k >= 2)))
        halving_[reg] = bits;
    }
  }

  // ---- code ----
  std::string fresh(int bits) {
    if (bits == 1) return "%cvl_p" + std::to_string(s_.p++);
    return bits == 32 ? "%cvl_r" + std::to_string(s_.r++) : "%cvl_d" + std::to_string(s_.d++);
  }
  static std::string op(const Val& v) {
    if (!v.imm) return v.reg;
    return v.v == INT64_MIN ? "0x8000000000000000" : std::to_string(v.v);
  }
  Val emit(const std::string& opcode, int bits, const Val& a, const Val& b) {
    const std::string d = fresh(bits);
    c_ << "\t" << opcode << " " << d << ", " << op(a) << ", " << op(b) << ";\n";
    return {false, 0, d};
  }
  Val val(const std::string& operand, int bits) {
    if (auto v = parse_imm(operand)) return imm(wrap(*v, bits));
    if (operand[0] == '%') return {false, 0, operand};
    const std::string d = fresh(64);  // a variable's address
    c_ << "\tmov.u64 " << d << ", " << operand << ";\n";
    return {false, 0, d};
  }
  Val add(int bits, Val a, Val b) {
    if (a.imm && b.imm) return imm(wrap(static_cast<long long>(static_cast<uint64_t>(a.v) + static_cast<uint64_t>(b.v)), bits));
    if (is_zero(a)) return b;
    if (is_zero(b)) return a;
    if (a.imm) std::swap(a, b);
    return emit("add.s" + std::to_string(bits), bits, a, b);
  }
  Val mul(int bits, Val a, Val b) {
    if (a.imm && b.imm) return imm(wrap(static_cast<long long>(static_cast<uint64_t>(a.v) * static_cast<uint64_t>(b.v)), bits));
    if (is_zero(a) || is_zero(b)) return imm(0);
    if (a.imm) std::swap(a, b);
    if (b.imm && b.v == 1) return a;
    return emit("mul.lo.s" + std::to_string(bits), bits, a, b);
  }
  Val neg(int bits, const Val& a) {
    if (a.imm) return imm(wrap(static_cast<long long>(0ull - static_cast<uint64_t>(a.v)), bits));
    const std::string d = fresh(bits);
    c_ << "\tneg.s" << bits << " " << d << ", " << a.reg << ";\n";
    return {false, 0, d};
  }
  Val widen(const Val& a, bool sign) {
    if (a.imm) return imm(sign ? static_cast<int32_t>(a.v) : static_cast<long long>(static_cast<uint32_t>(a.v)));
    const std::string d = fresh(64);
    c_ << "\tcvt." << (sign ? "s64.s32 " : "u64.u32 ") << d << ", " << a.reg << ";\n";
    return {false, 0, d};
  }
  Val narrow(const Val& a) {
    if (a.imm) return imm(wrap(a.v, 32));
    const std::string d = fresh(32);
    c_ << "\tcvt.u32.u64 " << d << ", " << a.reg << ";\n";
    return {false, 0, d};
  }
  void require(const std::string& setp, const Val& a, const Val& b) {
    const std::string p = fresh(1);
    c_ << "\t" << setp << " " << p << ", " << op(a) << ", " << op(b) << ";\n";
    oks_.push_back(p);
  }
  // The last iteration's index, ceil(d / step), for d > 0: the loop's `in`
  // held (the check has left for the guarded copy otherwise), so no select.
  Val last_trip(const Val& d, const Val& step) {
    if (step.imm && step.v == 1) return d;
    return add(64, divide(add(64, d, imm(-1)), step), imm(1));
  }
  Val divide(const Val& a, const Val& by) {  // unsigned 64-bit
    if (by.imm && by.v > 0 && (by.v & (by.v - 1)) == 0) {
      int j = 0;
      while ((1ll << j) < by.v) ++j;
      return j ? emit("shr.u64", 64, a, imm(j)) : a;
    }
    if (by.imm) return emit("div.u64", 64, a, by);
    // By a register (a grid-stride loop): most threads run it once or
    // twice, so the division is skipped when the quotient is 0.
    const std::string q = fresh(64), small = fresh(1), L = "$cvl_" + std::to_string(s_.labels++) + "_div";
    c_ << "\tmov.u64 " << q << ", 0;\n\tsetp.lt.u64 " << small << ", " << op(a) << ", " << op(by) << ";\n\t@"
       << small << " bra " << L << ";\n\tdiv.u64 " << q << ", " << op(a) << ", " << op(by) << ";\n" << L << ":\n";
    return {false, 0, q};
  }

  // ---- values ----
  std::optional<Lin> value(const std::string& operand, size_t at, int bits, int depth);
  std::optional<Lin> from_def(size_t q, int bits, int depth);
  std::optional<Lin> lin_add(std::optional<Lin> a, std::optional<Lin> b, bool subtract) {
    if (!a || !b || a->bits != b->bits) return std::nullopt;
    const int n = a->bits;
    if (subtract) b->base = neg(n, b->base), b->step = neg(n, b->step);
    return Lin{n, add(n, a->base, b->base), add(n, a->step, b->step)};
  }
  std::optional<Lin> lin_mul(std::optional<Lin> a, std::optional<Lin> b) {
    if (!a || !b || a->bits != b->bits) return std::nullopt;
    if (!is_zero(a->step)) std::swap(a, b);
    if (!is_zero(a->step)) return std::nullopt;  // a product of two changing values
    const int n = a->bits;
    return Lin{n, mul(n, a->base, b->base), mul(n, a->base, b->step)};
  }
  // A 32-bit value widened: exact only while it does not wrap over the loop.
  std::optional<Lin> lin_widen(std::optional<Lin> a, bool sign) {
    if (!a || a->bits != 32) return std::nullopt;
    Lin w{64, widen(a->base, sign), widen(a->step, true)};
    if (is_zero(w.step)) return w;
    if (!k_) {
      // The loop's own test may read a widened index: its range is guarded
      // once the trip count that assumed it is known (trip_count()).
      if (!defer_) return std::nullopt;
      deferred_.push_back({w, sign, *a});
      return w;
    }
    no_wrap(w, sign, *a);
    return w;
  }
  // w (the 32-bit `narrow` widened) takes its last value in range: base + K
  // below 2^32. With a unit step and the 32-bit trip count of the commonest
  // loop that is K <= ~base in 32 bits (for a signed value base with its sign
  // bit flipped, which is sext(base) + 2^31 as unsigned): two instructions
  // instead of the sum's widening and 64-bit compare.
  void no_wrap(const Lin& w, bool sign, const Lin& narrow) {
    if (k32_ && narrow.step.imm && narrow.step.v == 1) {
      Val b = narrow.base;
      if (sign) b = b.imm ? imm(b.v ^ 0x80000000ll) : emit("xor.b32", 32, b, imm(0x80000000ll));
      Val room = b.imm ? imm(static_cast<long long>(~static_cast<uint32_t>(b.v))) : Val{false, 0, fresh(32)};
      if (!b.imm) c_ << "\tnot.b32 " << room.reg << ", " << b.reg << ";\n";
      require("setp.le.u32", *k32_, room);
      return;
    }
    Val end = add(64, w.base, mul(64, w.step, *k_));
    if (sign) end = add(64, end, imm(1ll << 31));
    require("setp.lt.u64", end, imm(1ll << 32));  // the last value still in its 32-bit range
  }

  bool trip_count();
  const std::vector<size_t>* latch_test(const Instruction& latch) const;
  void trip_up(int bits, bool sign, bool le, Val x0, Val bound, Val step);
  // Most threads of a grid-stride loop run it once: `in` false (no trip
  // after the first) leaves for the guarded copy at once, before the rest
  // of the check is computed, which would cost more than that one trip.
  // With a register step (a grid-stride loop) a thread that runs it once
  // (d = bound - x0 <= step, d > 0 as `in` holds) leaves too, before the trip
  // count's 64-bit division (a subroutine of dozens of instructions in SASS):
  // for most threads the check's whole cost is then these two compares.
  void leave_if_short(const std::string& in, const Val& step, const Val& d) {
    c_ << "\t@!" << in << " bra " << kSlowLabel << ";\n";
    if (step.imm) return;
    short_trips_ = 2;
    const std::string once = fresh(1);
    c_ << "\tsetp.le.u64 " << once << ", " << op(d) << ", " << op(step) << ";\n\t@" << once << " bra " << kSlowLabel
       << ";\n";
  }
  bool trip_ne(int bits, Val x0, Val bound, long long step);
  // A loop that runs once gains nothing from its proven copy: straight to the guarded one.
  void leave_if_once() {
    const std::string once = fresh(1);
    c_ << "\tsetp.lt.u64 " << once << ", " << op(*k_) << ", " << short_trips_ << ";\n\t@" << once << " bra "
       << kSlowLabel << ";\n";
  }

  const std::vector<Piece>& pieces_;
  const Loop& loop_;
  LoopScratch& s_;
  std::map<size_t, Instruction> ins_;
  std::map<std::string, std::vector<size_t>> defs_;
  std::vector<size_t> labels_, branches_;
  std::map<std::string, IV> ivs_;
  std::map<std::string, int> halving_;  // registers halved once a trip -> bits
  std::string bounded_;                 // the halved register bounding the addresses, when no trip count
  std::ostringstream c_;
  std::vector<std::string> oks_;
  std::optional<Val> k_;  // the last iteration's index (an upper bound), 64-bit
  std::optional<Val> k32_;  // the same in 32 bits, where trip_up counted it so (a unit step)
  long long short_trips_ = 1;  // fewer back-branches than this: the guarded copy
  bool defer_ = false;    // widened values' ranges guarded after the trip count
  struct Widened {
    Lin w;
    bool sign;
    Lin narrow;
  };
  std::vector<Widened> deferred_;
};

std::optional<Lin> Prover::value(const std::string& operand, size_t at, int bits, int depth) {
  if (depth > 12 || operand.empty()) return std::nullopt;
  if (operand[0] != '%' || invariant(operand)) return Lin{bits, val(operand, bits), imm(0)};
  if (!bounded_.empty() && operand == bounded_) {
    // Bounded mode: the trip's "k" is this register's value, 0..its entry value.
    if (halving_.at(operand) != bits) return std::nullopt;
    return Lin{bits, imm(0), imm(1)};
  }
  if (auto it = ivs_.find(operand); it != ivs_.end()) {
    if (!bounded_.empty()) return std::nullopt;  // not bounded by the halved register
    const IV& iv = it->second;
    if (iv.bits != bits) return std::nullopt;
    Val step = val(iv.step, bits);
    if (iv.subtract) step = neg(bits, step);
    Val base{false, 0, operand};
    if (iv.at < at) base = add(bits, base, step);  // read after this iteration's step
    return Lin{bits, base, step};
  }
  const std::vector<size_t>& d = defs_.at(operand);
  if (d.size() != 1) return std::nullopt;
  if (d[0] < at && !label_in(d[0], at)) return from_def(d[0], bits, depth + 1);
  // Defined later in the iteration, once every iteration (NVVM computes the
  // next trip's index at the end): read here, it holds the value the last
  // iteration left, g(k - 1), or what it held on entry for k = 0; that is
  // affine when the entry value is g(-1), which the check requires.
  if (d[0] <= at || !every_iteration(d[0]) || depth > 6 || !bounded_.empty()) return std::nullopt;
  auto g = from_def(d[0], bits, depth + 1);
  if (!g) return std::nullopt;
  Lin r{bits, add(bits, g->base, neg(bits, g->step)), g->step};
  require("setp.eq.s" + std::to_string(bits), Val{false, 0, operand}, r.base);
  return r;
}

std::optional<Lin> Prover::from_def(size_t q, int bits, int depth) {
  const Instruction& ins = ins_.at(q);
  const std::vector<std::string>& o = ins.operands;
  const std::string& root = ins.parts[0];
  if (!ins.guard.empty() || ins.parts.size() < 2) return std::nullopt;
  const std::string& t = ins.parts.back();
  const int n = type_bits(t);
  if (o.size() < 2) return std::nullopt;
  auto v = [&](size_t k, int b) { return value(o[k], q, b, depth); };
  if (ins.parts.size() == 2 && n == bits) {
    if (root == "mov" && o.size() == 2) return v(1, n);
    if ((root == "not" || root == "neg") && o.size() == 2) {  // ~a = -a - 1
      auto a = v(1, n);
      if (!a) return std::nullopt;
      Lin r{n, neg(n, a->base), neg(n, a->step)};
      if (root == "not") r.base = add(n, r.base, imm(-1));
      return r;
    }
    if ((root == "add" || root == "sub") && o.size() == 3 && t[0] != 'b') return lin_add(v(1, n), v(2, n), root == "sub");
    if (root == "shl" && o.size() == 3)
      if (auto s = parse_imm(o[2]); s && *s >= 0 && *s < n) return lin_mul(v(1, n), Lin{n, imm(wrap(1ll << *s, n)), imm(0)});
  }
  if (ins.parts.size() == 3 && n == bits && (root == "mul" || root == "mad") && ins.parts[1] == "lo" &&
      t[0] != 'b' && o.size() == (root == "mul" ? 3u : 4u)) {
    auto p = lin_mul(v(1, n), v(2, n));
    return root == "mul" ? p : lin_add(p, v(3, n), false);
  }
  if (ins.parts.size() == 3 && bits == 64 && ins.parts[1] == "wide" && (t == "s32" || t == "u32") &&
      o.size() == (root == "mul" ? 3u : 4u) && (root == "mul" || root == "mad")) {
    auto p = lin_mul(lin_widen(v(1, 32), t[0] == 's'), lin_widen(v(2, 32), t[0] == 's'));
    return root == "mul" ? p : lin_add(p, v(3, 64), false);
  }
  if (root == "cvt" && ins.parts.size() == 3 && o.size() == 2) {
    const std::string& to = ins.parts[1];
    if (type_bits(to) == 64 && bits == 64 && type_bits(t) == 32 && t[0] != 'f') return lin_widen(v(1, 32), t[0] == 's');
    if (type_bits(to) == 32 && bits == 32 && type_bits(t) == 64 && t[0] != 'f') {
      auto a = v(1, 64);
      if (!a) return std::nullopt;
      return Lin{32, narrow(a->base), narrow(a->step)};
    }
  }
  return std::nullopt;
}

}  // namespace

namespace {

std::string swapped(const std::string& c) {
  if (c == "lt") return "gt";
  if (c == "gt") return "lt";
  if (c == "le") return "ge";
  if (c == "ge") return "le";
  return c;
}
std::string inverted(const std::string& c) {
  static const std::map<std::string, std::string> m = {{"lt", "ge"}, {"ge", "lt"}, {"le", "gt"},
                                                        {"gt", "le"}, {"eq", "ne"}, {"ne", "eq"}};
  auto it = m.find(c);
  return it == m.end() ? "" : it->second;
}
std::string plain(const std::string& c) {  // the unsigned spellings
  if (c == "lo") return "lt";
  if (c == "ls") return "le";
  if (c == "hi") return "gt";
  if (c == "hs") return "ge";
  return c;
}

}  // namespace

// Loops counting up while x < bound (x <= bound with `le`), x stepping by
// `step` > 0: the last iteration is ceil((bound - x0) / step) when x0 <
// bound, else 0, provided no value of x wraps (bound + step - 1 fits).
// Counting down (x > bound) is the same with both negated.
void Prover::trip_up(int bits, bool sign, bool le, Val x0, Val bound, Val step) {
  // The commonest loop, a 32-bit index stepped by 1 to a bound (a search, a
  // row): x0 < bound in 32 bits, and the last iteration is bound - x0, exact
  // as an unsigned 32-bit difference; nothing can wrap (x stops at bound).
  if (bits == 32 && !le && step.imm && step.v == 1 && !bound.imm) {
    const std::string in = fresh(1), S = sign ? "s32" : "u32";
    if (x0.imm) c_ << "\tsetp.gt." << S << " " << in << ", " << op(bound) << ", " << op(x0) << ";\n";
    else c_ << "\tsetp.lt." << S << " " << in << ", " << op(x0) << ", " << op(bound) << ";\n";
    leave_if_short(in, step, imm(1));
    k32_ = x0.imm ? add(32, bound, imm(wrap(-x0.v, 32))) : emit("sub.s32", 32, bound, x0);
    k_ = widen(*k32_, false);
    return;
  }
  if (bits == 32) {
    x0 = widen(x0, sign), bound = widen(bound, sign);
    step = step.imm ? imm(step.v) : widen(step, sign);
    if (le) bound = add(64, bound, imm(1));
    const long long max = sign ? (1ll << 31) - 1 : (1ll << 32) - 1;
    require("setp.le.s64", add(64, add(64, bound, step), imm(-1)), imm(max));
    if (!step.imm) require("setp.gt.s64", step, imm(0));
    const Val d = add(64, bound, neg(64, x0));
    const std::string in = fresh(1);
    c_ << "\tsetp.gt.s64 " << in << ", " << op(d) << ", 0;\n";
    leave_if_short(in, step, d);
    k_ = last_trip(d, step);
    return;
  }
  const std::string S = sign ? "s64" : "u64";
  if (le) {
    require("setp.ne." + S, bound, imm(sign ? INT64_MAX : -1));
    bound = add(64, bound, imm(1));
  }
  if (!step.imm) require(sign ? "setp.gt.s64" : "setp.ne.u64", step, imm(0));
  // bound + step - 1 <= MAX, as bound <= MAX - step + 1 (no overflow on the way)
  const Val top = add(64, imm(sign ? INT64_MIN : 0), neg(64, step));
  require("setp.le." + S, bound, top);
  const std::string in = fresh(1);
  c_ << "\tsetp.lt." << S << " " << in << ", " << op(x0) << ", " << op(bound) << ";\n";
  const Val d = add(64, bound, neg(64, x0));  // when `in`: the distance, below 2^64 as unsigned
  leave_if_short(in, step, d);
  k_ = last_trip(d, step);
}

// x != bound, x stepping by a power of two: the last iteration is
// (bound - x0) / step, when that divides exactly (else x passes bound).
bool Prover::trip_ne(int bits, Val x0, Val bound, long long step) {
  const unsigned long long m = static_cast<unsigned long long>(step < 0 ? -step : step);
  if (!m || (m & (m - 1))) return false;
  int j = 0;
  while ((1ull << j) < m) ++j;
  const Val d = step > 0 ? add(bits, bound, neg(bits, x0)) : add(bits, x0, neg(bits, bound));
  if (j) {
    const std::string b = std::to_string(bits);
    require("setp.eq.u" + b, emit("and.b" + b, bits, d, imm(static_cast<long long>(m - 1))), imm(0));
  }
  Val k = j ? emit("shr.u" + std::to_string(bits), bits, d, imm(j)) : d;
  k_ = bits == 32 ? widen(k, false) : k;
  return true;
}

// The definition of the predicate the branch back tests: one setp executed
// every iteration; of `and.pred a, b` (going on while both hold), a setp of
// either, which alone bounds the trip count.
const std::vector<size_t>* Prover::latch_test(const Instruction& latch) const {
  if (latch.guard.empty() || !defs_.count(latch.guard)) return nullptr;
  const std::vector<size_t>* d = &defs_.at(latch.guard);
  if (d->size() != 1 || !every_iteration((*d)[0])) return nullptr;
  if (const Instruction& a = ins_.at((*d)[0]); !latch.guard_negated && a.opcode == "and.pred" && a.operands.size() == 3)
    for (size_t k = 1; k <= 2; ++k) {
      const std::string& q = a.operands[k];
      if (q.empty() || q[0] == '!' || !defs_.count(q) || defs_.at(q).size() != 1 || !every_iteration(defs_.at(q)[0]))
        continue;
      if (ins_.at(defs_.at(q)[0]).parts[0] == "setp") return &defs_.at(q);
    }
  return d;
}

bool Prover::trip_count() {
  const Instruction& latch = ins_.at(loop_.latch);
  const std::vector<size_t>* d = latch_test(latch);
  if (!d) return false;
  const Instruction& s = ins_.at((*d)[0]);
  if (s.parts.size() != 3 || s.parts[0] != "setp" || !s.guard.empty() || s.operands.size() != 3 ||
      s.operands[0].find('|') != std::string::npos)
    return false;
  std::string cmp = plain(s.parts[1]);
  const int bits = type_bits(s.parts[2]);
  const bool sign = s.parts[2][0] == 's';
  if (!bits) return false;
  // One side changes by a fixed step an iteration (an induction variable,
  // or one plus an invariant), the other does not.
  defer_ = true;
  std::optional<Lin> x = value(s.operands[1], (*d)[0], bits, 0), bound = value(s.operands[2], (*d)[0], bits, 0);
  defer_ = false;
  if (!x || !bound) return false;
  if (is_zero(x->step)) std::swap(x, bound), cmp = swapped(cmp);
  if (latch.guard_negated) cmp = inverted(cmp);
  if (is_zero(x->step) || !is_zero(bound->step) || cmp.empty()) return false;
  const Val step = x->step, x0 = x->base, b = bound->base;
  if (cmp == "ne") {
    if (!step.imm || !trip_ne(bits, x0, b, step.v)) return false;
  } else if (cmp == "lt" || cmp == "le") {
    if (step.imm && step.v <= 0) return false;
    trip_up(bits, sign, cmp == "le", x0, b, step);
  } else if (cmp == "gt" || cmp == "ge") {
    if (step.imm && step.v >= 0) return false;
    // Counting down is counting up on the negated values (signed), or on
    // their complements (unsigned: ~x = MAX - x keeps the order reversed).
    if (sign) {
      if (bits == 32) trip_up(32, true, cmp == "ge", neg(32, x0), neg(32, b), neg(32, step));
      else trip_up(64, true, cmp == "ge", neg(64, x0), neg(64, b), neg(64, step));
      // -INT_MIN wraps: a bound or start at the minimum is not proven
      require(bits == 32 ? "setp.ne.s32" : "setp.ne.s64", b, imm(bits == 32 ? INT32_MIN : INT64_MIN));
      require(bits == 32 ? "setp.ne.s32" : "setp.ne.s64", x0, imm(bits == 32 ? INT32_MIN : INT64_MIN));
    } else {
      const std::string B = std::to_string(bits);
      auto complement = [&](const Val& v) { return v.imm ? imm(wrap(~v.v, bits)) : emit("xor.b" + B, bits, v, imm(-1)); };
      trip_up(bits, false, cmp == "ge", complement(x0), complement(b), neg(bits, step));
    }
  } else {
    return false;
  }
  // Keeps every product below exact in 64 bits; a 32-bit loop's K is below it already.
  if (bits == 64) require("setp.lt.u64", *k_, imm(1ll << 32));
  for (const Widened& d : deferred_) no_wrap(d.w, d.sign, d.narrow);
  deferred_.clear();
  // A loop counted up or down has left already for the guarded copy if it
  // runs once (leave_if_short: K is at least short_trips_ here); x != bound
  // may stop after its first trip.
  if (cmp == "ne") leave_if_once();
  return true;
}

// One range's check: both ends of every address its members use, inside the
// window or one buffer, aligned. False (nothing proven) when its address
// does not follow from the loop.
bool Prover::prove_range(const Range& r, LoopProof& out) {
  const LoopAccess& a = *r.members[0];
  std::optional<Lin> addr = value(a.base, a.piece, a.base32 ? 32 : 64, 0);
  if (addr && a.base32) addr = lin_widen(addr, false);
  if (!addr || (!is_zero(addr->step) && !k_) || (addr->step.imm && addr->step.v % r.align)) return false;
  Val lo = add(64, addr->base, imm(r.lo));
  Val len = imm(r.hi - r.lo);
  const bool small_step = addr->step.imm && addr->step.v >= -kSmallStep && addr->step.v <= kSmallStep;
  if (small_step && addr->step.v != 0) {
    // K < 2^32 (or the check fails anyway): step * K is exact, below 2^60,
    // and its sign is the step's; so is the range's length below 2^62.
    const Val p = mul(64, addr->step, *k_);
    if (addr->step.v > 0) len = add(64, p, len);
    else lo = add(64, lo, p), len = add(64, neg(64, p), len);
  } else if (!is_zero(addr->step)) {
    // step * K, exact in 64 bits, then the range from both ends.
    const Val p = mul(64, addr->step, *k_);
    const Val hi_part = addr->step.imm ? emit("mul.hi.s64", 64, *k_, addr->step) : emit("mul.hi.s64", 64, addr->step, *k_);
    require("setp.eq.s64", hi_part, emit("shr.s64", 64, p, imm(63)));
    const Val below = emit("min.s64", 64, p, imm(0)), above = emit("max.s64", 64, p, imm(0));
    lo = add(64, lo, below);
    len = add(64, add(64, above, neg(64, below)), len);
    if (!addr->step.imm && r.align > 1)
      require("setp.eq.u64", emit("and.b64", 64, addr->step, imm(r.align - 1)), imm(0));
  }
  if (r.align > 1) require("setp.eq.u64", emit("and.b64", 64, addr->base, imm(r.align - 1)), imm(0));
  // lo + len cannot wrap past 2^64 (a small immediate step's length is below it)
  if (!len.imm && !small_step) require("setp.lt.u64", len, imm(1ll << 62));
  c_ << "\tmov.b64 %cvg_d0, " << op(lo) << ";\n";
  c_ << window_check(a.space, "$cvl_" + std::to_string(s_.labels++) + "_", "%cvg_d0", op(len), a.root);
  const std::string p = fresh(1);
  c_ << "\tmov.pred " << p << ", %cvg_p0;\n";
  oks_.push_back(p);
  out.needs_window = out.needs_window || a.space != "global";
  for (const LoopAccess* m : r.members) out.proven.push_back(m->piece);
  return true;
}

std::optional<LoopProof> Prover::prove(const std::vector<LoopAccess>& accesses) {
  LoopProof out;
  out.trip_count = trip_count();
  if (!out.trip_count) {  // what it emitted is of no use: start again without it
    c_.str("");
    oks_.clear();
    k_.reset();
    k32_.reset();
    short_trips_ = 1;
    deferred_.clear();
    // One halved register bounds every address affine in it (a block tree),
    // whatever the trip count: "k" ranges over its values, 0 to its entry value.
    if (halving_.size() == 1) {
      // A block tree's accesses sit under `if (t < half)`: a thread makes them
      // in about one trip of the tree in all (its warp in 1.5 of 8 at 256
      // threads), so their fences cost less than the proof's range (dozens
      // of 64-bit instructions), and the loop keeps its aligned barrier.
      const bool any_every_trip = std::any_of(accesses.begin(), accesses.end(),
                                              [&](const LoopAccess& a) { return every_iteration(a.piece); });
      if (!any_every_trip) return std::nullopt;
      bounded_ = halving_.begin()->first;
      const int bits = halving_.begin()->second;
      k_ = bits == 64 ? Val{false, 0, bounded_} : widen(Val{false, 0, bounded_}, false);
      require("setp.lt.u64", *k_, imm(1ll << 32));
    }
  }

  // Accesses through one register holding one value share a range.
  std::map<std::string, Range> ranges;
  for (const LoopAccess& a : accesses) {
    if (a.space == "generic" || a.space.empty() || !a.width || a.offset % a.width) continue;
    std::string version = "inv";
    if (ivs_.count(a.base)) version = ivs_.at(a.base).at < a.piece ? "post" : "pre";
    else if (defs_.count(a.base)) version = std::to_string(defs_.at(a.base)[0]);
    Range& r = ranges[a.space + " " + a.base + " " + version];
    if (r.members.empty()) r.lo = a.offset, r.hi = a.offset + a.width;
    r.members.push_back(&a);
    r.lo = std::min(r.lo, a.offset);
    r.hi = std::max(r.hi, a.offset + static_cast<long long>(a.width));
    r.align = std::max(r.align, a.width);
  }
  for (auto& [key, r] : ranges) {
    const size_t code_mark = c_.tellp(), oks_mark = oks_.size();
    if (prove_range(r, out)) continue;
    std::string text = c_.str();  // drop what this range emitted
    text.resize(code_mark);
    c_.str(text);
    c_.seekp(0, std::ios_base::end);
    oks_.resize(oks_mark);
  }
  if (out.proven.empty()) return std::nullopt;
  out.ok = fresh(1);
  c_ << "\tmov.pred " << out.ok << ", " << oks_[0] << ";\n";
  for (size_t i = 1; i < oks_.size(); ++i) c_ << "\tand.pred " << out.ok << ", " << out.ok << ", " << oks_[i] << ";\n";
  std::sort(out.proven.begin(), out.proven.end());
  out.check = c_.str();
  return out;
}

std::optional<LoopProof> prove_loop(const std::vector<Piece>& pieces, const Loop& loop,
                                    const std::vector<LoopAccess>& accesses, LoopScratch& scratch) {
  if (!loop.versionable || accesses.empty()) return std::nullopt;
  const LoopScratch before = scratch;
  Prover p(pieces, loop, scratch);
  auto proof = p.prove(accesses);
  if (!proof) scratch = before;
  return proof;
}

}  // namespace cv::usercode::guard
