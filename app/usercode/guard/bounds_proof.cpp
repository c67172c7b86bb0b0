#include "usercode/guard/bounds_proof.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "usercode/guard/ptx_loops.h"

namespace cv::usercode::guard {
namespace {

constexpr int kMaxDepth = 12;  // definitions followed back from one register

bool is_register(const std::string& s) { return !s.empty() && s[0] == '%'; }

std::optional<uint64_t> immediate(const std::string& s) {
  if (s.empty() || !(std::isdigit(static_cast<unsigned char>(s[0])))) return std::nullopt;
  try {
    size_t used = 0;
    const unsigned long long v = std::stoull(s, &used, 0);
    if (used != s.size()) return std::nullopt;
    return v;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// Registers an instruction writes: its first operand's, except for those that write none.
std::vector<std::string> written(const Instruction& ins) {
  static const std::set<std::string> none = {"st",   "red",   "bar",  "barrier",   "bra",     "brx",  "ret",
                                             "exit", "membar", "fence", "trap",    "brkpt",   "call", "prefetch",
                                             "prefetchu", "nanosleep", "pmevent", "discard", "applypriority"};
  std::vector<std::string> out;
  if (ins.operands.empty()) return out;
  // A call writes the registers of its return list, when it has one in parentheses.
  if (ins.parts[0] == "call" && ins.operands[0][0] != '(') return out;
  // bar.red / barrier.red (__syncthreads_count, _and, _or) write their first operand.
  const bool reduces = std::find(ins.parts.begin(), ins.parts.end(), "red") != ins.parts.end();
  if (ins.parts[0] != "call" && none.count(ins.parts[0]) &&
      !((ins.parts[0] == "bar" || ins.parts[0] == "barrier") && reduces))
    return out;
  std::string cur;
  for (char c : ins.operands[0] + ",") {
    if (c == ',' || c == '|' || c == '{' || c == '}' || c == ' ' || c == '(' || c == ')') {
      if (is_register(cur)) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  return out;
}

// A comparison known on some way through the function: lhs < rhs, unsigned.
struct Fact {
  std::string lhs, rhs;  // registers, or rhs an immediate
  bool operator<(const Fact& o) const { return std::tie(lhs, rhs) < std::tie(o.lhs, o.rhs); }
  bool operator==(const Fact& o) const { return lhs == o.lhs && rhs == o.rhs; }
};

struct Node {
  size_t piece;
  bool label = false;
  std::string name;  // a label's
  Instruction ins;
};

struct Block {
  size_t first = 0, last = 0;  // node indexes, inclusive
  std::vector<size_t> succ, pred;
  std::vector<std::vector<Fact>> gen_to;  // facts on the edge to succ[k]
};

class Prover {
 public:
  Prover(const std::vector<Piece>& pieces, size_t begin, size_t end, const BoundsInput& in) : in_(in) {
    for (size_t i = begin; i < end; ++i) {
      const Piece& p = pieces[i];
      if (p.kind == PieceKind::Open || p.kind == PieceKind::Close) {
        ok_ = false;
        return;
      }
      if (p.kind == PieceKind::Label) {
        nodes_.push_back({i, true, label_name(p), {}});
        continue;
      }
      Instruction ins;
      if (p.kind != PieceKind::Stmt || !parse_instruction(p.text, ins)) continue;
      if (ins.parts[0] == "brx") {
        ok_ = false;
        return;
      }
      nodes_.push_back({i, false, "", ins});
    }
    for (size_t k = 0; k < nodes_.size(); ++k)
      if (!nodes_[k].label)
        for (const std::string& r : written(nodes_[k].ins)) defs_[r].push_back(k);
    blocks();
    dominators();
    facts();
  }

  std::set<size_t> proven() {
    std::set<size_t> out;
    if (!ok_ || in_.entry.empty()) return out;
    for (size_t k = 0; k < nodes_.size(); ++k) {
      const Instruction& ins = nodes_[k].ins;
      if (nodes_[k].label || !is_memory_root(ins.parts[0])) continue;
      if (in_range(k)) out.insert(nodes_[k].piece);
    }
    return out;
  }

 private:
  // Basic blocks: a label or the instruction after a branch starts one.
  void blocks() {
    std::vector<size_t> starts;
    for (size_t k = 0; k < nodes_.size(); ++k) {
      const bool after_branch = k > 0 && !nodes_[k - 1].label && ends_block(nodes_[k - 1].ins);
      if (k == 0 || nodes_[k].label || after_branch) starts.push_back(k);
    }
    std::map<std::string, size_t> at_label;
    for (size_t b = 0; b < starts.size(); ++b) {
      Block blk;
      blk.first = starts[b];
      blk.last = b + 1 < starts.size() ? starts[b + 1] - 1 : nodes_.size() - 1;
      blocks_.push_back(blk);
      for (size_t k = blk.first; k <= blk.last && nodes_[k].label; ++k) at_label[nodes_[k].name] = b;
      for (size_t k = blk.first; k <= blk.last; ++k) block_of_[k] = b;
    }
    for (size_t b = 0; b < blocks_.size(); ++b) {
      Block& blk = blocks_[b];
      const Node& last = nodes_[blk.last];
      const bool branch = !last.label && last.ins.parts[0] == "bra";
      const bool leaves = !last.label && (last.ins.parts[0] == "ret" || last.ins.parts[0] == "exit");
      const bool conditional = !last.label && !last.ins.guard.empty();
      if (branch) {
        auto t = at_label.find(branch_target(last.ins));
        if (t == at_label.end()) {  // a branch out of the body: nothing can be said
          ok_ = false;
          return;
        }
        edge(b, t->second, conditional ? branch_facts(blk.last, true) : std::vector<Fact>{});
      }
      if ((!branch && !leaves) || conditional) {
        if (b + 1 < blocks_.size())
          edge(b, b + 1, branch && conditional ? branch_facts(blk.last, false) : std::vector<Fact>{});
      }
    }
  }

  static bool ends_block(const Instruction& ins) {
    return ins.parts[0] == "bra" || ins.parts[0] == "ret" || ins.parts[0] == "exit";
  }

  void edge(size_t from, size_t to, std::vector<Fact> facts) {
    blocks_[from].succ.push_back(to);
    blocks_[from].gen_to.push_back(std::move(facts));
    blocks_[to].pred.push_back(from);
  }

  // The unique definition of `reg` when there is exactly one.
  std::optional<size_t> only_def(const std::string& reg) const {
    auto it = defs_.find(reg);
    if (it == defs_.end() || it->second.size() != 1) return std::nullopt;
    return it->second[0];
  }

  // Whether `reg` is written by a node in (from, to), both in one block.
  bool written_between(const std::string& reg, size_t from, size_t to) const {
    for (size_t k = from + 1; k < to; ++k)
      if (!nodes_[k].label)
        for (const std::string& r : written(nodes_[k].ins))
          if (r == reg) return true;
    return false;
  }

  // What the branch at node `at` says when its predicate's value is `taken`.
  std::vector<Fact> branch_facts(size_t at, bool taken) const {
    const Instruction& b = nodes_[at].ins;
    std::vector<Fact> out;
    predicate_facts(b.guard, taken != b.guard_negated, at, at, 0, out);
    return out;
  }

  // Facts implied by predicate `p` holding `value` where it is read (node
  // `at`), for the branch at `branch`: `p` defined once, earlier in the same
  // block, and nothing it reads written from there to the branch.
  void predicate_facts(const std::string& p, bool value, size_t at, size_t branch, int depth,
                       std::vector<Fact>& out) const {
    if (depth > 4) return;
    const std::optional<size_t> d = only_def(p);
    if (!d || *d >= at || block_of_.at(*d) != block_of_.at(branch)) return;
    const Instruction& ins = nodes_[*d].ins;
    for (size_t o = 1; o < ins.operands.size(); ++o)
      if (is_register(ins.operands[o]) && written_between(ins.operands[o], *d, branch)) return;
    const std::string& op = ins.parts[0];
    if (op == "or" && ins.parts.size() == 2 && ins.parts[1] == "pred" && ins.operands.size() == 3 && !value) {
      predicate_facts(ins.operands[1], false, *d, branch, depth + 1, out);
      predicate_facts(ins.operands[2], false, *d, branch, depth + 1, out);
    } else if (op == "and" && ins.parts.size() == 2 && ins.parts[1] == "pred" && ins.operands.size() == 3 && value) {
      predicate_facts(ins.operands[1], true, *d, branch, depth + 1, out);
      predicate_facts(ins.operands[2], true, *d, branch, depth + 1, out);
    } else if (op == "not" && ins.parts.size() == 2 && ins.parts[1] == "pred" && ins.operands.size() == 2) {
      predicate_facts(ins.operands[1], !value, *d, branch, depth + 1, out);
    } else if (op == "setp" && ins.parts.size() == 3 && ins.operands.size() == 3 &&
               (ins.parts[2] == "u32" || ins.parts[2] == "u64") && ins.operands[0].find('|') == std::string::npos) {
      const std::string& cmp = ins.parts[1];
      const std::string &a = ins.operands[1], &c = ins.operands[2];
      // a < c when (lt, true) or (ge, false); c < a when (gt, true) or (le, false).
      if ((cmp == "lt" && value) || (cmp == "ge" && !value)) {
        if (is_register(a)) out.push_back({a, c});
      } else if ((cmp == "gt" && value) || (cmp == "le" && !value)) {
        if (is_register(c)) out.push_back({c, a});
      } else if ((cmp == "le" && value) || (cmp == "gt" && !value)) {  // a <= N: a < N + 1
        if (auto n = immediate(c); n && is_register(a) && *n < UINT32_MAX) out.push_back({a, std::to_string(*n + 1)});
      }
    }
  }

  // Dominators of each block (iterative, on the small CFGs of kernels).
  void dominators() {
    if (!ok_) return;
    const size_t n = blocks_.size();
    dom_.assign(n, std::vector<char>(n, 1));
    if (n) dom_[0].assign(n, 0), dom_[0][0] = 1;
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t b = 1; b < n; ++b) {
        std::vector<char> d(n, 1);
        if (blocks_[b].pred.empty()) d.assign(n, 0);
        for (size_t p : blocks_[b].pred)
          for (size_t x = 0; x < n; ++x) d[x] = d[x] && dom_[p][x];
        d[b] = 1;
        if (d != dom_[b]) dom_[b] = std::move(d), changed = true;
      }
    }
  }

  bool dominates(size_t def, size_t use) const {
    const size_t a = block_of_.at(def), b = block_of_.at(use);
    return a == b ? def < use : dom_[b][a];
  }

  // The facts that hold on entry to each block (forward, must: the meet is
  // the intersection over incoming edges; a write to either side drops one).
  void facts() {
    if (!ok_) return;
    std::set<Fact> all;
    for (const Block& b : blocks_)
      for (const auto& g : b.gen_to) all.insert(g.begin(), g.end());
    all_.assign(all.begin(), all.end());
    const size_t n = blocks_.size();
    entry_facts_.assign(n, std::vector<char>(all_.size(), 1));
    if (n) entry_facts_[0].assign(all_.size(), 0);
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t b = 1; b < n; ++b) {
        std::vector<char> meet(all_.size(), 1);
        if (blocks_[b].pred.empty()) meet.assign(all_.size(), 0);
        for (size_t p : blocks_[b].pred) {
          std::vector<char> out = through(p, blocks_[p].last + 1);
          const Block& pb = blocks_[p];
          for (size_t s = 0; s < pb.succ.size(); ++s) {
            if (pb.succ[s] != b) continue;
            std::vector<char> with = out;
            for (const Fact& f : pb.gen_to[s]) with[index(f)] = 1;
            for (size_t x = 0; x < meet.size(); ++x) meet[x] = meet[x] && with[x];
          }
        }
        if (meet != entry_facts_[b]) entry_facts_[b] = std::move(meet), changed = true;
      }
    }
  }

  size_t index(const Fact& f) const { return std::lower_bound(all_.begin(), all_.end(), f) - all_.begin(); }

  // The facts of block b's entry carried to node `upto` (exclusive) of it.
  std::vector<char> through(size_t b, size_t upto) const {
    std::vector<char> f = entry_facts_[b];
    for (size_t k = blocks_[b].first; k < upto && k <= blocks_[b].last; ++k) {
      if (nodes_[k].label) continue;
      for (const std::string& r : written(nodes_[k].ins))
        for (size_t x = 0; x < all_.size(); ++x)
          if (f[x] && (all_[x].lhs == r || all_[x].rhs == r)) f[x] = 0;
    }
    return f;
  }

  // ----- values -----

  // The definition of `reg` used at node `at`: the only one, placed before
  // `at` on every way there.
  const Instruction* def_at(const std::string& reg, size_t at, size_t* where = nullptr) const {
    const std::optional<size_t> d = only_def(reg);
    if (!d || !dominates(*d, at)) return nullptr;
    if (where) *where = *d;
    return &nodes_[*d].ins;
  }

  // A register loaded from a span parameter: which one, and the byte offset
  // in it (0: the data pointer, 8: the size), through `ld.param.u64` or
  // NVVM's `ld.param.v2.u64 {ptr, size}`.
  std::optional<std::pair<int, long long>> param_field(const Instruction& d, const std::string& reg) const {
    if (d.parts[0] != "ld" || d.parts.size() < 3 || d.parts[1] != "param" || d.operands.size() < 2) return std::nullopt;
    const std::string& type = d.parts.back();
    if (type != "u64" && type != "b64" && type != "s64") return std::nullopt;
    long long at = 0;
    if (d.parts.size() == 4 && d.parts[2] == "v2") {
      const std::vector<std::string> regs = written(d);
      if (regs.size() != 2) return std::nullopt;
      at = regs[0] == reg ? 0 : regs[1] == reg ? 8 : -1;
      if (at < 0 || regs[0] == regs[1]) return std::nullopt;
    } else if (d.parts.size() != 3) {
      return std::nullopt;
    }
    for (long long base : {0ll, 8ll}) {
      if (base + at > 8) continue;
      if (auto j = param_at(d.operands[1], base); j && in_.span_elem_bytes.count(*j))
        return std::make_pair(*j, base + at);
    }
    return std::nullopt;
  }

  // `[ENTRY_param_J+off]` -> J, when off matches.
  std::optional<int> param_at(const std::string& operand, long long off) const {
    const std::string prefix = "[" + in_.entry + "_param_";
    if (operand.rfind(prefix, 0) != 0) return std::nullopt;
    std::string rest = operand.substr(prefix.size());
    rest.erase(std::remove(rest.begin(), rest.end(), ' '), rest.end());
    size_t digits = 0;
    while (digits < rest.size() && std::isdigit(static_cast<unsigned char>(rest[digits]))) ++digits;
    if (!digits) return std::nullopt;
    const int j = std::stoi(rest.substr(0, digits));
    const std::string tail = rest.substr(digits);
    const std::string want = off ? "+" + std::to_string(off) + "]" : "]";
    if (tail != want && !(off == 0 && tail == "+0]")) return std::nullopt;
    return j;
  }

  // Which %ntid dimensions `reg` is the product of (bit d), 0 when not one.
  int ntid_product(const std::string& reg, size_t at, int depth) const {
    if (depth > kMaxDepth) return 0;
    const Instruction* d = def_at(reg, at);
    if (!d || d->operands.size() < 2) return 0;
    const std::string& op = d->parts[0];
    if (op == "mov" && d->operands[1].rfind("%ntid.", 0) == 0 && d->operands[1].size() == 7)
      return 1 << (d->operands[1][6] - 'x');
    if (op == "mul" && d->parts.size() == 3 && d->parts[1] == "lo" && d->operands.size() == 3) {
      const int a = ntid_product(d->operands[1], at, depth + 1), b = ntid_product(d->operands[2], at, depth + 1);
      if (a && b && !(a & b)) return a | b;
    }
    return 0;
  }

  // Which dimensions `reg` is a thread index over: value < the product of
  // %ntid over them (tid.x; (tid.z * ntid.y + tid.y) * ntid.x + tid.x ...).
  int thread_index(const std::string& reg, size_t at, int depth) const {
    if (depth > kMaxDepth) return 0;
    size_t where = 0;
    const Instruction* d = def_at(reg, at, &where);
    if (!d || d->operands.size() < 2) return 0;
    const std::string& op = d->parts[0];
    if (op == "mov" && d->operands[1].rfind("%tid.", 0) == 0 && d->operands[1].size() == 6)
      return 1 << (d->operands[1][5] - 'x');
    if (op == "cvt" && d->parts.size() == 3 && (d->parts[1] == "u64" || d->parts[1] == "u32" || d->parts[1] == "s64") &&
        (d->parts[2] == "u32" || (d->parts[1] == "u32" && d->parts[2] == "u64")))
      return thread_index(d->operands[1], where, depth + 1);  // widened, or cut back to 32 bits: unchanged
    // a * ntid.d + c with a over S (d not in S) and c = tid.d: below prod(S) * ntid.d.
    if (op == "mad" && d->parts.size() == 3 && d->parts[1] == "lo" && d->operands.size() == 4) {
      for (int swap = 0; swap < 2; ++swap) {
        const std::string& a = d->operands[1 + swap];
        const std::string& n = d->operands[2 - swap];
        const int nd = ntid_product(n, where, depth + 1);
        if (!nd || (nd & (nd - 1))) continue;  // one dimension
        const int s = thread_index(a, where, depth + 1), c = thread_index(d->operands[3], where, depth + 1);
        if (s && c == nd && !(s & nd)) return s | nd;
      }
    }
    return 0;
  }

  // An upper bound on `reg` as read at node `at`: value <= max.
  std::optional<uint64_t> numeric_max(const std::string& reg, size_t at, int depth) const {
    if (depth > kMaxDepth) return std::nullopt;
    if (auto n = immediate(reg)) return *n;
    std::optional<uint64_t> best;
    auto take = [&](std::optional<uint64_t> v) {
      if (v && (!best || *v < *best)) best = v;
    };
    if (thread_index(reg, at, depth + 1)) take(in_.max_threads_per_block - 1);
    if (ntid_product(reg, at, depth + 1)) take(in_.max_threads_per_block);
    // A comparison that holds here.
    for (const Fact& f : facts_at(at))
      if (f.lhs == reg)
        if (auto b = strict_bound(f.rhs, at, depth + 1); b && *b > 0) take(*b - 1);
    size_t where = 0;
    const Instruction* d = def_at(reg, at, &where);
    if (d && d->operands.size() >= 2) {
      const std::string& op = d->parts[0];
      // Widened unsigned, or cut to its low bits (never larger).
      if (op == "cvt" && d->parts.size() == 3 &&
          (((d->parts[2] == "u32" || d->parts[2] == "u16") &&
            (d->parts[1] == "u64" || d->parts[1] == "u32" || d->parts[1] == "s64")) ||
           (d->parts[1] == "u32" && d->parts[2] == "u64")))
        take(numeric_max(d->operands[1], where, depth + 1));
      if (op == "shr" && d->operands.size() == 3 && (d->parts.back() == "u32" || d->parts.back() == "u64"))
        if (auto k = immediate(d->operands[2]); k && *k < 64)
          if (auto m = numeric_max(d->operands[1], where, depth + 1)) take(*m >> *k);
      if (op == "and" && d->operands.size() == 3)
        if (auto m = immediate(d->operands[2])) take(*m);
      if (op == "rem" && d->operands.size() == 3 && (d->parts.back() == "u32" || d->parts.back() == "u64"))
        if (auto m = immediate(d->operands[2]); m && *m > 0) take(*m - 1);
      if (op == "mov" && d->operands.size() == 2 && immediate(d->operands[1])) take(immediate(d->operands[1]));
      // A sum of two bounded values that cannot wrap (nor turn negative in 32 bits).
      if (op == "add" && d->operands.size() == 3)
        if (auto x = numeric_max(d->operands[1], where, depth + 1))
          if (auto y = numeric_max(d->operands[2], where, depth + 1); y && *x < (1ull << 30) && *y < (1ull << 30))
            take(*x + *y);
    }
    return best;
  }

  // A value `rhs` (read at `at`) that a comparison `x < rhs` bounds x by: x < result.
  std::optional<uint64_t> strict_bound(const std::string& rhs, size_t at, int depth) const {
    if (auto n = immediate(rhs)) return *n;
    if (ntid_product(rhs, at, depth + 1)) return in_.max_threads_per_block;
    if (auto m = numeric_max(rhs, at, depth + 1); m && *m < UINT64_MAX) return *m + 1;
    return std::nullopt;
  }

  // The span whose size `rhs` is (`ld.param.u64 [ENTRY_param_J+8]`, or its low 32 bits).
  std::optional<int> span_size(const std::string& rhs, size_t at, int depth) const {
    if (depth > kMaxDepth) return std::nullopt;
    size_t where = 0;
    const Instruction* d = def_at(rhs, at, &where);
    if (!d || d->operands.size() < 2) return std::nullopt;
    if (auto f = param_field(*d, rhs); f && f->second == 8) return f->first;
    // Truncated (unsigned n = data.size) or copied: the value is at most the size.
    if ((d->parts[0] == "cvt" && d->parts.size() == 3 && d->parts[1] == "u32" &&
         (d->parts[2] == "u64" || d->parts[2] == "s64")) ||
        (d->parts[0] == "mov" && d->parts.size() == 2))
      return span_size(d->operands[1], where, depth + 1);
    return std::nullopt;
  }

  // Whether `rhs` (read at `at`) is a scalar parameter's field declared at
  // most span `param`'s size (BoundsInput::scalar_at_most), widened or not.
  bool field_at_most(const std::string& rhs, size_t at, int param, int depth) const {
    if (depth > kMaxDepth) return false;
    size_t where = 0;
    const Instruction* d = def_at(rhs, at, &where);
    if (!d || d->operands.size() != 2) return false;
    if (d->parts[0] == "cvt" && d->parts.size() == 3 && d->parts[1] == "u64" && d->parts[2] == "u32")
      return field_at_most(d->operands[1], where, param, depth + 1);
    if (d->parts[0] != "ld" || d->parts.size() != 3 || d->parts[1] != "param") return false;
    const std::string& type = d->parts[2];
    const unsigned bytes = type == "u32" || type == "b32" ? 4 : type == "u64" || type == "b64" ? 8 : 0;
    for (const auto& [j, fields] : in_.scalar_at_most)
      for (const BoundsInput::AtMost& f : fields)
        if (f.bytes == bytes && param_at(d->operands[1], f.offset) == j &&
            std::any_of(f.spans.begin(), f.spans.end(), [&](int s) { return size_class(s) == size_class(param); }))
          return true;
    return false;
  }

  std::vector<Fact> facts_at(size_t at) const {
    std::vector<Fact> out;
    const size_t b = block_of_.at(at);
    const std::vector<char> f = through(b, at);
    for (size_t x = 0; x < all_.size(); ++x)
      if (f[x]) out.push_back(all_[x]);
    return out;
  }

  // ----- addresses -----

  struct Affine {
    int param = -1;          // a span parameter's pointer, or
    std::string shared;      // a static __shared__ array, or
    bool dynamic = false;    // shared is an extern __shared__ array (the launch's dynamic memory)
    std::string index;       // "" when none
    size_t index_at = 0;     // where the index register is read
    bool index_signed = false;  // sign-extended from 32 bits
    uint64_t scale = 0;
    long long offset = 0;
  };

  // reg = base + index * scale + offset, as read at node `at`.
  std::optional<Affine> affine(const std::string& reg, size_t at, int depth) const {
    if (depth > kMaxDepth) return std::nullopt;
    size_t where = 0;
    const Instruction* d = def_at(reg, at, &where);
    if (!d || d->operands.size() < 2) return std::nullopt;
    const std::string& op = d->parts[0];
    if (auto f = param_field(*d, reg)) {
      if (f->second != 0) return std::nullopt;
      Affine a;
      a.param = f->first;
      return a;
    }
    if (op == "cvta" && d->parts.size() >= 3 && d->parts[1] == "to" && d->parts[2] == "global") {
      std::optional<Affine> a = affine(d->operands[1], where, depth + 1);
      if (a && a->param >= 0 && a->index.empty() && !a->offset) return a;
      return std::nullopt;
    }
    if (op == "mov" && d->operands.size() == 2) {
      if (in_.shared.count(d->operands[1]) || in_.extern_shared.count(d->operands[1])) {
        Affine a;
        a.shared = d->operands[1];
        a.dynamic = !in_.shared.count(d->operands[1]);
        return a;
      }
      if (is_register(d->operands[1])) return affine(d->operands[1], where, depth + 1);
      return std::nullopt;
    }
    if (op == "add" && d->operands.size() == 3) {
      for (int s = 0; s < 2; ++s) {
        std::optional<Affine> a = affine(d->operands[1 + s], where, depth + 1);
        if (!a) continue;
        const std::string& other = d->operands[2 - s];
        if (auto n = immediate(other)) {
          a->offset += static_cast<long long>(*n);
          return a;
        }
        if (!a->index.empty()) return std::nullopt;
        if (!index_term(other, where, depth + 1, *a)) return std::nullopt;
        return a;
      }
    }
    return std::nullopt;
  }

  // `reg` (read at `at`) as index * scale into `a`.
  bool index_term(const std::string& reg, size_t at, int depth, Affine& a) const {
    if (depth > kMaxDepth) return false;
    size_t where = 0;
    const Instruction* d = def_at(reg, at, &where);
    a.index = reg, a.index_at = at, a.scale = 1, a.index_signed = false;
    if (!d || d->operands.size() < 2) return true;
    const std::string& op = d->parts[0];
    if (op == "mul" && d->parts.size() == 3 && d->parts[1] == "wide" && d->operands.size() == 3) {
      if (auto k = immediate(d->operands[2]); k && is_register(d->operands[1])) {
        a.index = d->operands[1], a.index_at = where, a.scale = *k, a.index_signed = d->parts[2] == "s32";
        return true;
      }
    }
    if ((op == "shl" || (op == "mul" && d->parts.size() == 3 && d->parts[1] == "lo")) && d->operands.size() == 3) {
      auto k = immediate(d->operands[2]);
      if (!k || (op == "shl" && *k > 40)) return true;
      const uint64_t scale = op == "shl" ? (1ull << *k) : *k;
      Affine inner;
      index_term(d->operands[1], where, depth + 1, inner);
      a.index = inner.index, a.index_at = inner.index_at, a.index_signed = inner.index_signed;
      a.scale = inner.scale * scale;
      return true;
    }
    return true;  // the register itself (a widened one is followed by the bounds, below)
  }

  int size_class(int param) const {
    auto it = in_.span_size_class.find(param);
    return it == in_.span_size_class.end() ? param : it->second;
  }

  // Whether `x`, read at `at`, is below the size of span `param` (or of one
  // always as large): a comparison with it holds there, or x is that size's
  // mirror image S + ~i = S - 1 - i of an i below S.
  bool below_size(const std::string& x, size_t at, int param) const {
    auto same = [&](const std::string& rhs, size_t where) {
      const std::optional<int> j = span_size(rhs, where, 0);
      return (j && size_class(*j) == size_class(param)) || field_at_most(rhs, where, param, 0);
    };
    for (const Fact& f : facts_at(at))
      if (f.lhs == x && same(f.rhs, at)) return true;
    size_t where = 0;
    const Instruction* d = def_at(x, at, &where);
    if (!d) return false;
    // Zero-extended: the same value, compared where it was 32 bits.
    if (d->parts[0] == "cvt" && d->parts.size() == 3 && d->parts[1] == "u64" && d->parts[2] == "u32" &&
        d->operands.size() == 2)
      return below_size(d->operands[1], where, param);
    if (d->parts[0] != "add" || d->operands.size() != 3) return false;
    for (int s = 0; s < 2; ++s) {
      const std::string &size = d->operands[1 + s], &inverted = d->operands[2 - s];
      size_t not_at = 0;
      const Instruction* n = def_at(inverted, where, &not_at);
      if (!n || n->parts[0] != "not" || n->operands.size() != 2 || !same(size, where)) continue;
      if (written_after(size, not_at, where)) continue;
      for (const Fact& f : facts_at(not_at))
        if (f.lhs == n->operands[1] && f.rhs == size) return true;  // i < S, the very S added
    }
    return false;
  }

  // Dimensions whose %ntid product `reg` is, through a widening (0: none).
  int threads_of(const std::string& reg, size_t at) const {
    size_t where = 0;
    const Instruction* d = def_at(reg, at, &where);
    if (d && d->parts[0] == "cvt" && d->parts.size() == 3 && d->parts[1] == "u64" && d->parts[2] == "u32" &&
        d->operands.size() == 2)
      return ntid_product(d->operands[1], where, 0);
    return ntid_product(reg, at, 0);
  }

  // Whether `x`, read at `at`, is below the block's thread count (the
  // product of %ntid over all three, or over some: never more): a thread's
  // index in its block, a comparison with such a product that holds there,
  // or its mirror image S + ~t = S - 1 - t of a thread index t over no other
  // dimensions than S's.
  bool below_threads(const std::string& x, size_t at, int depth) const {
    if (depth > kMaxDepth) return false;
    if (thread_index(x, at, 0)) return true;
    for (const Fact& f : facts_at(at))
      if (f.lhs == x && threads_of(f.rhs, at)) return true;
    size_t where = 0;
    const Instruction* d = def_at(x, at, &where);
    if (!d || d->operands.size() < 2) return false;
    if (d->parts[0] == "cvt" && d->parts.size() == 3 && d->parts[1] == "u64" && d->parts[2] == "u32")
      return below_threads(d->operands[1], where, depth + 1);
    if (d->parts[0] != "add" || d->operands.size() != 3) return false;
    for (int s = 0; s < 2; ++s) {
      const std::string &size = d->operands[1 + s], &inverted = d->operands[2 - s];
      size_t not_at = 0;
      const Instruction* n = def_at(inverted, where, &not_at);
      if (!n || n->parts[0] != "not" || n->operands.size() != 2) continue;
      const int dims = threads_of(size, where), t = thread_index(n->operands[1], not_at, 0);
      if (dims && t && !(t & ~dims)) return true;
    }
    return false;
  }

  // Whether `reg` may be written between node `from` and node `to` (single definitions only).
  bool written_after(const std::string& reg, size_t from, size_t to) const {
    const std::optional<size_t> d = only_def(reg);
    if (!d) return true;
    return !(dominates(*d, from) && *d < to);
  }

  bool in_range(size_t k) const {
    const Instruction& ins = nodes_[k].ins;
    std::string space;
    const unsigned width = access_shape(ins, space);
    if (!width || (space != "global" && space != "shared")) return false;
    const std::string* op = nullptr;
    for (const std::string& o : ins.operands)
      if (!o.empty() && o[0] == '[') op = &o;
    if (!op) return false;
    std::string inside = op->substr(1, op->find(']') - 1);
    inside.erase(std::remove(inside.begin(), inside.end(), ' '), inside.end());
    long long off = 0;
    if (size_t plus = inside.find('+', 1); plus != std::string::npos) {
      try {
        off = std::stoll(inside.substr(plus + 1), nullptr, 0);
      } catch (const std::exception&) {
        return false;
      }
      inside = inside.substr(0, plus);
    }
    if (!is_register(inside)) return false;
    std::optional<Affine> a = affine(inside, k, 0);
    if (!a || a->index.empty() || !a->scale) return false;
    const long long c = a->offset + off;
    const uint64_t w = width;
    if (c < 0 || c % static_cast<long long>(w) || a->scale % w) return false;
    if (a->param >= 0 && space == "global") {
      // index < the span's own size, scale its element: inside [data, data + size * elem).
      const unsigned elem = in_.span_elem_bytes.at(a->param);
      if (a->scale != elem || static_cast<uint64_t>(c) + w > elem || elem % w) return false;
      if (a->index_signed) return false;  // a negative index sign-extends past any size
      return below_size(a->index, a->index_at, a->param);
    }
    if (a->dynamic && space == "shared") {
      // Extern shared memory of P bytes a thread (the template's, which
      // make_launch gives): an index below the block's thread count, scaled by at most
      // P, plus at most P - width: (threads - 1) * P + P <= threads * P.
      const uint64_t per = in_.shared_bytes_per_thread;
      if (!per || in_.extern_shared.at(a->shared) % w || a->index_signed) return false;
      if (a->scale > per || static_cast<uint64_t>(c) + w > per) return false;
      return below_threads(a->index, a->index_at, 0);
    }
    if (!a->shared.empty() && space == "shared") {
      const SharedArray& s = in_.shared.at(a->shared);
      if (s.align % w) return false;
      std::optional<uint64_t> m = numeric_max(a->index, a->index_at, 0);
      if (!m || *m > (1ull << 31) || (a->index_signed && *m >= (1ull << 31))) return false;
      const unsigned __int128 end = static_cast<unsigned __int128>(*m) * a->scale + static_cast<uint64_t>(c) + w;
      return end <= static_cast<unsigned __int128>(s.bytes) && end < (1ull << 31);
    }
    return false;
  }

  const BoundsInput& in_;
  bool ok_ = true;
  std::vector<Node> nodes_;
  std::map<std::string, std::vector<size_t>> defs_;
  std::vector<Block> blocks_;
  std::map<size_t, size_t> block_of_;
  std::vector<std::vector<char>> dom_;
  std::vector<Fact> all_;
  std::vector<std::vector<char>> entry_facts_;  // facts on entry to each block
};

}  // namespace

std::set<size_t> proven_by_bounds(const std::vector<Piece>& pieces, size_t begin, size_t end,
                                  const BoundsInput& in) {
  if (in.entry.empty()) return {};
  Prover p(pieces, begin, end, in);
  return p.proven();
}

}  // namespace cv::usercode::guard
