#include "usercode/guard/ptx_guard.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "usercode/guard/access_groups.h"
#include "usercode/guard/access_roots.h"
#include "usercode/guard/bounds_proof.h"
#include "usercode/guard/address_facts.h"
#include "usercode/guard/check_code.h"
#include "usercode/guard/guard_abi.h"
#include "usercode/guard/loop_cache.h"
#include "usercode/guard/loop_proof.h"
#include "usercode/guard/ptx_loops.h"
#include "usercode/guard/ptx_text.h"
#include "usercode/guard/student_lines.h"

namespace cv::usercode::guard {
namespace {

// Instructions that touch no memory (registers, control flow, barriers):
// passed through. Anything not here and not guarded below is refused.
const std::set<std::string>& plain_opcodes() {
  static const std::set<std::string> s = {
      "abs", "activemask", "add", "addc", "and", "bar", "barrier", "bfe", "bfi", "bfind", "bmsk",
      "bra", "brev", "brkpt", "brx", "clz", "cnot", "copysign", "cos", "createpolicy", "cvt",
      "cvta", "div", "dp2a", "dp4a", "elect", "ex2", "exit", "fence", "fma", "fns", "getctarank",
      "griddepcontrol", "isspacep", "istypep", "lg2", "lop3", "mad", "mad24", "madc", "mapa",
      "match", "max", "membar", "min", "mma", "mov", "movmatrix", "mul", "mul24", "nanosleep",
      "neg", "not", "or", "pmevent", "popc", "prmt", "rcp", "redux", "rem", "ret", "rsqrt", "sad",
      "selp", "set", "setmaxnreg", "setp", "shf", "shfl", "shl", "shr", "sin", "slct", "sqrt",
      "sub", "subc", "szext", "tanh", "testp", "trap", "vote", "xor", "vabsdiff", "vadd", "vsub",
      "vmin", "vmax", "vshl", "vshr", "vmad", "vset", "vabsdiff2", "vabsdiff4", "vadd2", "vadd4",
      "vsub2", "vsub4", "vmin2", "vmin4", "vmax2", "vmax4", "vavrg2", "vavrg4", "vset2", "vset4"};
  return s;
}

// What a refused instruction is, in words.
std::string refused_what(const std::string& root, const std::string& opcode) {
  if (root == "tex" || root == "tld4" || root == "txq" || root == "suld" || root == "sust" ||
      root == "sured" || root == "suq")
    return "a texture or surface instruction (" + opcode + ")";
  if (root == "cp") return "an asynchronous or bulk copy (" + opcode + ")";
  if (root == "ldmatrix" || root == "stmatrix" || root == "wmma" || root == "wgmma" ||
      root == "tcgen05")
    return "a matrix load or store (" + opcode + ")";
  if (root == "mbarrier") return "an mbarrier operation on shared memory (" + opcode + ")";
  if (root == "prefetch" || root == "prefetchu") return "a prefetch (" + opcode + ")";
  if (root == "alloca" || root == "stacksave" || root == "stackrestore")
    return "a dynamically sized local array (" + opcode + ")";
  return "the instruction " + opcode + ", which the guard does not know";
}

// The address inside [...]: a register, a variable or a number, plus an offset.
struct Address {
  enum Kind { Register, Variable, Absolute } kind = Register;
  std::string base;
  long long offset = 0;
};

bool parse_address(const std::string& operand, Address& a) {
  if (operand.empty() || operand[0] != '[') return false;
  const size_t close = operand.find(']');
  if (close == std::string::npos) return false;
  std::string in;
  for (char c : operand.substr(1, close - 1))
    if (c != ' ') in += c;
  if (in.empty()) return false;
  size_t plus = in.find('+', 1);
  std::string base = in.substr(0, plus);
  if (plus != std::string::npos) {
    const std::string off = in.substr(plus + 1);
    char* end = nullptr;
    a.offset = std::strtoll(off.c_str(), &end, 0);
    if (off.empty() || *end) return false;
  }
  if (std::isdigit(static_cast<unsigned char>(base[0])) || base[0] == '-') {
    char* end = nullptr;
    a.kind = Address::Absolute;
    a.offset += std::strtoll(base.c_str(), &end, 0);
    return !*end;
  }
  a.base = base;
  return true;
}

struct Var {
  std::string space;
  long long bytes = -1;
  unsigned align = 1;
  bool is_extern = false;
};

// Registers of one function: name or "%prefix<" -> bytes (0: predicate).
class Registers {
 public:
  void add(const VarDecl& d) {
    for (const std::string& n : d.names) {
      const size_t lt = n.find('<');
      if (lt != std::string::npos) ranged_[n.substr(0, lt)] = d.elem_bytes;
      else single_[n] = d.elem_bytes;
    }
  }
  // Bytes of the register, -1 when it is not one.
  int bytes(const std::string& name) const {
    if (auto it = single_.find(name); it != single_.end()) return static_cast<int>(it->second);
    size_t e = name.size();
    while (e > 0 && std::isdigit(static_cast<unsigned char>(name[e - 1]))) --e;
    if (e == name.size() || e == 0) return -1;
    if (auto it = ranged_.find(name.substr(0, e)); it != ranged_.end())
      return static_cast<int>(it->second);
    return -1;
  }

 private:
  std::map<std::string, unsigned> single_, ranged_;
};

// A statement that declares (".reg", ".shared", ".pragma"...), not an instruction.
bool declaration(const Piece& p) {
  if (p.kind != PieceKind::Stmt) return false;
  const std::string t = squeeze(p.text);
  return !t.empty() && t[0] == '.';
}

struct Function {
  size_t header = 0, open = 0, close = 0;  // piece indexes
  std::string name;
  bool has_body = false;
};

std::string function_name(const std::string& header) {
  const std::string h = squeeze(header);
  // The name is the identifier right before the parameter list's '(' (a .func
  // starts with its return list in parentheses, after the word ".func").
  for (size_t i = 0; i < h.size(); ++i) {
    if (h[i] != '(') continue;
    size_t e = i;
    while (e > 0 && h[e - 1] == ' ') --e;
    size_t b = e;
    while (b > 0 && (std::isalnum(static_cast<unsigned char>(h[b - 1])) || h[b - 1] == '_' ||
                     h[b - 1] == '$'))
      --b;
    if (b < e && (b == 0 || h[b - 1] != '.')) return h.substr(b, e - b);
  }
  return "";
}

// One function body rewritten.
class Rewriter {
 public:
  Rewriter(const std::vector<Piece>& pieces, const std::map<std::string, Var>& module_vars,
           const std::set<std::string>& defined_functions, const std::set<int>& student_files,
           const GuardOptions& options, GuardedPtx& out)
      : pieces_(pieces), vars_(module_vars), defined_(defined_functions), out_(out), lines_(student_files),
        options_(options) {}

  // The prelude's line marker (checked s[i], guard_abi.h) -> the student's line here.
  std::string with_line(const std::string& text) const {
    const std::string marker = std::to_string(kLineMarker);
    const size_t at = text.find(marker);
    if (at == std::string::npos) return text;
    return text.substr(0, at) + std::to_string(lines_.line()) + text.substr(at + marker.size());
  }

  // The student's line through every .loc, inside functions or not (student_lines.h).
  void directive(const std::string& text) { lines_.see(text); }

  // long: one function's passes in order (roots, facts, loops, pieces, prologue, failure paths).
  void function(const Function& f, std::string& text) {
    fn_ = f.name;
    regs_ = Registers{};
    depot_.clear();
    depot_bytes_ = 0;
    // Declarations first (they may follow the code in nested blocks).
    for (size_t i = f.open + 1; i < f.close; ++i) {
      if (pieces_[i].kind != PieceKind::Stmt) continue;
      if (auto d = parse_decl(pieces_[i].text)) {
        if (d->space == "reg") regs_.add(*d);
        if (d->space == "local" && d->bytes > 0 && depot_.empty())
          depot_ = d->names[0], depot_bytes_ = d->bytes;
        if (d->space == "local" || d->space == "shared" || d->space == "global")
          for (const std::string& n : d->names)
            local_vars_[n] = Var{d->space, d->bytes, std::max(1u, d->align), d->is_extern};
      }
    }
    const std::vector<int> depth = block_depths(f);
    roots_.clear();
    const bool entry = (" " + squeeze(pieces_[f.header].text)).find(" .entry ") != std::string::npos;
    if (entry) roots_ = parameter_roots(pieces_, f.open + 1, f.close);
    bounded_ = proven_by_bounds(pieces_, f.open + 1, f.close, bounds_input(entry ? f.name : ""));
    const std::vector<AccessGroup> groups = find_groups(
        pieces_, f.open + 1, f.close, [&](size_t i, const Instruction& ins) {
          return depth[i] || bounded_.count(i) ? std::nullopt : group_member(ins);
        });
    facts_ = facts(f);
    const std::map<size_t, Planned> loops = plan_loops(f);
    Emit e;
    bool prologue_done = false;
    size_t prologue_pos = std::string::npos;  // where the prologue goes (body text offset)
    size_t next_group = 0;
    for (size_t i = f.open + 1; i < f.close; ++i) {
      const Piece& p = pieces_[i];
      const bool decl = declaration(p);
      if (!prologue_done && (p.kind == PieceKind::Label || (p.kind == PieceKind::Stmt && !decl) ||
                             p.kind == PieceKind::Open)) {
        prologue_pos = e.body.size();
        prologue_done = true;
      }
      if (auto l = loops.find(i); l != loops.end()) {
        emit_loop(l->second, groups, next_group, depth, e);
        i = l->second.loop.latch;
        continue;
      }
      emit_piece(i, groups, next_group, depth, e.body, e);
    }
    std::string& body = e.body;
    const bool needs_regs = e.needs_regs, needs_window = e.needs_window;
    if (needs_regs && prologue_pos != std::string::npos)
      body.insert(prologue_pos, without_unused_rooms(prologue(needs_window), body + e.fails) + cache_.init);
    text += pieces_[f.open].text;
    if (needs_regs) text += scratch_registers() + scratch_.declarations() + cache_.declarations();
    text += body;
    text += e.fails;
    text += pieces_[f.close].text;
    local_vars_.clear();
    site_of_.clear();
    built_.clear();
    unalign_.clear();
    scratch_ = LoopScratch{};
    cache_ = CacheRegs{};
  }

 private:
  // Alignment facts for every memory instruction's base (address_facts.h).
  AddressFacts facts(const Function& f) const {
    std::map<std::string, unsigned> align;
    for (const auto* m : {&vars_, &local_vars_})
      for (const auto& [name, v] : *m) align[name] = v.align;
    std::set<size_t> asked;
    for (size_t i = f.open + 1; i < f.close; ++i) {
      Instruction ins;
      if (pieces_[i].kind == PieceKind::Stmt && parse_instruction(pieces_[i].text, ins) && is_memory_root(ins.parts[0]))
        asked.insert(i);
    }
    return address_facts(pieces_, f.open + 1, f.close, roots_, align, asked);
  }

  // Of { } blocks inside the body, at each piece.
  std::vector<int> block_depths(const Function& f) const {
    std::vector<int> depth(f.close + 1, 0);
    for (size_t i = f.open + 1, d = 0; i < f.close; ++i) {
      if (pieces_[i].kind == PieceKind::Open) ++d;
      if (pieces_[i].kind == PieceKind::Close) --d;
      depth[i] = static_cast<int>(d);
    }
    return depth;
  }

  void refuse(const std::string& what) {
    std::string where = lines_.line() ? "line " + std::to_string(lines_.line()) : "code the prelude added";
    if (out_.error.empty()) out_.error_line = lines_.line();
    out_.error += (out_.error.empty() ? "" : "\n") + where + ": " + what +
                  ": the guard cannot check it, so the kernel is refused (turn the guard off "
                  "to run it unguarded).";
  }

  void call(const Instruction& ins) {
    for (const std::string& op : ins.operands) {
      if (!op.empty() && op[0] == '(') continue;
      if (op.empty()) return;
      if (op[0] == '%' || regs_.bytes(op) >= 0) {
        refuse("a call through a function pointer");
        return;
      }
      if (defined_.count(op) || op == "vprintf" || op == "__assertfail") return;
      if (op == "malloc" || op == "free")
        refuse("device malloc/free (memory outside the buffers the app passes)");
      else
        refuse("a call to " + op + ", a function the guard cannot see into");
      return;
    }
  }

  // What one function's rewrite has produced so far.
  struct Emit {
    std::string body, fails;
    bool needs_regs = false, needs_window = false;
  };

  // Piece i rewritten into `out`; with `fast`, also its copy for a group's
  // fast path (`members`: the group's pieces, which run there unguarded).
  void emit(size_t i, bool nested, std::string& out, std::string* fast, Emit& e,
            const AccessGroup* group = nullptr, unsigned group_id = 0) {
    const Piece& p = pieces_[i];
    if (p.kind == PieceKind::Directive) directive(p.text);
    const bool decl = declaration(p);
    Instruction ins;
    if (p.kind != PieceKind::Stmt || decl || !parse_instruction(p.text, ins)) {
      out += p.text;
      if (fast) *fast += p.text;
      return;
    }
    const std::string& root = ins.parts[0];
    if (!is_memory_root(root)) {
      if (root == "call") call(ins);
      else if (!plain_opcodes().count(root)) refuse(refused_what(root, ins.opcode));
      const std::string text = with_line(unalign_.count(i) ? unaligned_barrier(p.text) : p.text);
      out += text;
      if (fast) *fast += text;
      return;
    }
    std::string code, fail;
    bool window = false;
    std::optional<Access> built;
    piece_ = i;
    if (!memory(ins, nested, code, fail, window, built)) {
      out += p.text;
      if (fast) *fast += p.text;
      return;
    }
    if (!code.empty()) e.needs_regs = true;
    e.needs_window = e.needs_window || window;
    site_of_[i] = out_.sites.size() - 1;
    if (built) built_[i] = *built;
    out += code;
    e.fails += fail;
    if (!fast) return;
    const unsigned site = static_cast<unsigned>(out_.sites.size() - 1);
    if (group && std::find(group->members.begin(), group->members.end(), i) != group->members.end()) {
      *fast += "\t// cudaviz guard: copy of site " + std::to_string(site) + ", guarded by group " +
               std::to_string(group_id) + "\n\t" + p.text;
    } else if (built) {
      Access copy = *built;
      copy.copy = "f";
      CheckCode cc = check_code(copy);
      *fast += cc.code;
      e.fails += cc.fail;
    } else {  // proven: no code, only its marker, which a copy must not repeat
      const std::string mark = "cudaviz guard: site";
      if (size_t at = code.find(mark); at != std::string::npos) code.replace(at, mark.size(), "cudaviz guard: copy of site");
      *fast += code;
    }
  }

  // A group's pieces twice, one after the other: after its one check, a copy
  // where its members run unguarded; when the check fails, the copy where
  // every access is guarded. (With the guarded copy out of line, after the
  // function's end, the tiled n-body ran 7% slower: ptxas schedules a loop
  // whose body leaves and re-enters it worse than one with a plain branch.)
  void emit_group(const AccessGroup& g, const std::vector<int>& depth, std::string& into, Emit& e) {
    const unsigned id = groups_++;
    const std::string G = "$cvg_g" + std::to_string(id) + "_";
    std::string fast, slow;
    for (size_t j = g.first; j <= g.last; ++j) emit(j, depth[j] > 0, slow, &fast, e, &g, id);
    GroupFacts facts;
    facts.root = g.base32 ? -1 : root_of(g.base);
    // As for one access (memory()): a rooted register's zeros are its offset's,
    // of use only through that parameter's window.
    if (root_of(g.base) < 0 || (g.space == "global" && facts.root >= 0)) facts.zeros = facts_.zeros_at(g.base, g.first);
    facts.frame_bytes = depot_bytes_;
    into += group_check(g, id, G + "slow", facts) + fast + "\n\tbra " + G + "done;\n" + G + "slow:\n" + slow +
            "\n" + G + "done:\n";
    e.needs_regs = true;
    e.needs_window = e.needs_window || g.space != "global";
    out_.grouped_instructions += g.members.size();
  }

  // One piece into `into`, or the group that starts at it.
  void emit_piece(size_t& i, const std::vector<AccessGroup>& groups, size_t& next_group,
                  const std::vector<int>& depth, std::string& into, Emit& e) {
    if (next_group < groups.size() && groups[next_group].first == i) {
      emit_group(groups[next_group++], depth, into, e);
      i = groups[next_group - 1].last;
      return;
    }
    emit(i, depth[i] > 0, into, nullptr, e);
  }

  struct Planned {
    Loop loop;
    LoopProof proof;
    bool nested = false;  // inside another loop: entered once a trip of it
  };

  // The loops of function `f` whose accesses can be proven before they run.
  std::map<size_t, Planned> plan_loops(const Function& f) {
    std::map<size_t, Planned> out;
    const std::vector<Loop> all = find_loops(pieces_, f.open + 1, f.close);
    for (const Loop& l : all) {
      if (!l.versionable) continue;
      const bool nested = std::any_of(all.begin(), all.end(), [&](const Loop& m) {
        return m.header < l.header && m.latch > l.latch;
      });
      std::vector<LoopAccess> accesses;
      for (size_t i = l.header + 1; i < l.latch; ++i) {
        Instruction ins;
        if (pieces_[i].kind == PieceKind::Stmt && parse_instruction(pieces_[i].text, ins))
          if (auto a = loop_access(i, ins)) accesses.push_back(*a);
      }
      if (auto proof = prove_loop(pieces_, l, accesses, scratch_)) out[l.header] = {l, std::move(*proof), nested};
    }
    return out;
  }

  std::optional<LoopAccess> loop_access(size_t i, const Instruction& ins) const {
    if (!is_memory_root(ins.parts[0]) || bounded_.count(i)) return std::nullopt;
    std::string space;
    const unsigned width = access_shape(ins, space);
    if (!width || (space != "global" && space != "shared" && space != "local")) return std::nullopt;
    for (const std::string& op : ins.operands) {
      if (op.empty() || op[0] != '[') continue;
      Address a;
      if (!parse_address(op, a) || a.kind != Address::Register) return std::nullopt;
      const int bytes = regs_.bytes(a.base);
      if (bytes != 8 && !(bytes == 4 && space != "global")) return std::nullopt;
      return LoopAccess{i, space, a.base, bytes == 4, a.offset, width, bytes == 8 ? root_of(a.base) : -1};
    }
    return std::nullopt;
  }

  // A branch statement with its target replaced.
  static std::string retarget(const Instruction& ins, const std::string& to) {
    std::string g = ins.guard.empty() ? "" : "@" + std::string(ins.guard_negated ? "!" : "") + ins.guard + " ";
    return "\t" + g + ins.opcode + " \t" + to + ";";
  }

  // A proven loop: at its header, the check; then the copy where the proven
  // accesses run unguarded (taken when the check passes), and the copy where
  // every access is guarded as anywhere else (when it fails). Each copy
  // branches back to its own start; the guarded copy is the one whose sites
  // are counted, and the only one that names them.
  // long: one loop's check, proven copy and guarded copy, emitted in that order.
  void emit_loop(const Planned& pl, const std::vector<AccessGroup>& groups, size_t& next_group,
                 const std::vector<int>& depth, Emit& e) {
    const Loop& l = pl.loop;
    const std::string L = "$cvg_l" + std::to_string(loops_++) + "_";
    // Threads of one block may run different copies: their barriers must meet
    // from either copy, so both copies use the non-aligned form.
    for (size_t j = l.header + 1; j <= l.latch; ++j)
      if (unaligned_barrier(pieces_[j].text) != pieces_[j].text) unalign_.insert(j);
    std::string check = pl.proof.check;
    for (size_t at = check.find(kSlowLabel); at != std::string::npos; at = check.find(kSlowLabel, at))
      check.replace(at, std::string(kSlowLabel).size(), L + "slow");
    std::string slow;
    for (size_t j = l.header + 1; j < l.latch; ++j) emit_piece(j, groups, next_group, depth, slow, e);
    Instruction latch;
    parse_instruction(pieces_[l.latch].text, latch);
    slow += retarget(latch, L + "slow");
    std::set<std::string> inside;
    for (size_t j = l.header + 1; j <= l.latch; ++j)
      if (pieces_[j].kind == PieceKind::Label) inside.insert(label_name(pieces_[j]));
    const std::set<size_t> proven(pl.proof.proven.begin(), pl.proof.proven.end());
    std::string fast;
    for (size_t j = l.header + 1; j <= l.latch; ++j) {
      const Piece& p = pieces_[j];
      Instruction ins;
      if (p.kind == PieceKind::Label) {
        fast += label_name(p) + "_" + L.substr(1) + "f:";
        continue;
      }
      if (p.kind == PieceKind::Directive) directive(p.text);
      if (p.kind != PieceKind::Stmt || !parse_instruction(p.text, ins)) {
        fast += p.text;
        continue;
      }
      if (const std::string t = branch_target(ins); !t.empty()) {
        fast += retarget(ins, t == l.label ? L + "fast" : inside.count(t) ? t + "_" + L.substr(1) + "f" : t);
        continue;
      }
      auto site = site_of_.find(j);
      if (site == site_of_.end()) {
        fast += with_line(unalign_.count(j) ? unaligned_barrier(p.text) : p.text);
        continue;
      }
      const std::string n = std::to_string(site->second);
      if (proven.count(j)) {
        out_.sites[site->second].loop_proven = true;
        ++out_.loop_proven_instructions;
        fast += "\t// cudaviz guard: copy of site " + n + ", proven for the loop\n\t" + p.text;
      } else if (auto b = built_.find(j); b != built_.end()) {
        Access copy = b->second;
        copy.copy = L.substr(5) + "f";
        CheckCode cc = check_code(copy);
        fast += cc.code;
        e.fails += cc.fail;
      } else {
        fast += "\t// cudaviz guard: copy of site " + n + " (proven)\n\t" + p.text;
      }
    }
    ++out_.loops_proven;
    e.needs_regs = true;
    e.needs_window = e.needs_window || pl.proof.needs_window;
    std::string head = check + "\t@!" + pl.proof.ok + " bra " + L + "slow;\n";
    if (pl.nested)
      if (auto cached = cached_check(check, pl.proof.ok, L + "slow", L + "c_",
                                     [&](const std::string& r) { return regs_.bytes(r); }, cache_))
        head = *cached;
    e.body += pieces_[l.header].text + "\n\t// cudaviz guard: " + std::to_string(pl.proof.proven.size()) +
              " accesses of this loop guarded once, before it runs\n" + head + L + "fast:" + fast +
              "\n\tbra.uni " + L + "after;\n" + L + "slow:" + slow + "\n" + L + "after:\n";
  }

  int root_of(const std::string& reg) const {
    auto it = roots_.find(reg);
    return it == roots_.end() ? -1 : it->second;
  }

  // The instruction as a group member (access_groups.h), when it can be one:
  // a guarded space, an address register plus a constant, no predicate.
  std::optional<GroupMember> group_member(const Instruction& ins) const {
    if (!is_memory_root(ins.parts[0]) || !ins.guard.empty()) return std::nullopt;
    std::string space;
    const unsigned width = access_shape(ins, space);
    if (!width || (space != "global" && space != "shared" && space != "local")) return std::nullopt;
    for (const std::string& op : ins.operands) {
      if (op.empty() || op[0] != '[') continue;
      Address a;
      if (!parse_address(op, a) || a.kind != Address::Register) return std::nullopt;
      const int bytes = regs_.bytes(a.base);
      if (bytes != 8 && !(bytes == 4 && space != "global")) return std::nullopt;
      return GroupMember{space, a.base, bytes == 4, a.offset, width};
    }
    return std::nullopt;
  }

  const Var* find_var(const std::string& name) const {
    if (auto it = local_vars_.find(name); it != local_vars_.end()) return &it->second;
    if (auto it = vars_.find(name); it != vars_.end()) return &it->second;
    return nullptr;
  }

  // The code for one memory instruction; false when it is not one the guard
  // checks (param / const space).
  bool memory(const Instruction& ins, bool nested, std::string& code, std::string& fail, bool& window,
              std::optional<Access>& built) {
    const std::string& root = ins.parts[0];
    std::string space;
    const unsigned width = access_shape(ins, space);
    if (space.empty()) {
      for (const std::string& q : ins.parts)
        if (q.rfind("shared::", 0) == 0) refuse("an access to another block's shared memory (" + ins.opcode + ")");
      return false;  // param / const: they cannot fault
    }
    const bool loads = root == "ld" || root == "ldu" || root == "atom";
    const std::string access = root == "st" ? "write" : (root == "atom" || root == "red") ? "atomic" : "read";
    // The address operand: the first in brackets.
    const std::string* addr_op = nullptr;
    for (const std::string& op : ins.operands)
      if (!op.empty() && op[0] == '[') {
        addr_op = &op;
        break;
      }
    Address a;
    if (!width || !addr_op || !parse_address(*addr_op, a)) {
      refuse("a memory instruction whose address the guard cannot read (" + ins.body + ")");
      return false;
    }
    int base_bytes = 8;
    const Var* var = nullptr;
    if (a.kind == Address::Register) {
      base_bytes = regs_.bytes(a.base);
      if (base_bytes < 0) {
        var = find_var(a.base);
        if (!var) {
          refuse("a memory instruction on '" + a.base + "', which the guard cannot place (" +
                 ins.body + ")");
          return false;
        }
        a.kind = Address::Variable;
      }
    }
    // Destinations a skipped load must leave defined.
    std::vector<std::string> dests;
    if (loads && !ins.operands.empty() && ins.operands[0][0] != '[') {
      std::string d = ins.operands[0];
      if (d[0] == '{') d = d.substr(1, d.size() - 2);
      std::string cur;
      for (char c : d + ",") {
        if (c == ',') {
          if (!cur.empty() && cur != "_") dests.push_back(cur);
          cur.clear();
        } else if (c != ' ') {
          cur += c;
        }
      }
    }
    const unsigned site = static_cast<unsigned>(out_.sites.size());
    GuardSite s{lines_.line(), access, space, width, ins.opcode, fn_, false};
    // A named variable at a fixed offset inside it: proven here.
    if (a.kind == Address::Variable && var->bytes >= 0 && a.offset >= 0 &&
        a.offset + static_cast<long long>(width) <= var->bytes && a.offset % width == 0 &&
        var->align % width == 0) {
      s.proven = true;
      out_.sites.push_back(s);
      ++out_.guarded_instructions;
      code = "\t// cudaviz guard: site " + std::to_string(site) + " proven (" + a.base + "+" +
             std::to_string(a.offset) + ")\n\t" + ins_text(ins, "") + ";";
      return true;
    }
    // In range by its index's bounds (bounds_proof.h): no code.
    if (bounded_.count(piece_)) {
      s.bounds_proven = true;
      out_.sites.push_back(s);
      ++out_.guarded_instructions;
      ++out_.bounds_proven_instructions;
      code = "\t// cudaviz guard: site " + std::to_string(site) + " proven by its bounds\n\t" + ins_text(ins, "") + ";";
      return true;
    }
    out_.sites.push_back(s);
    ++out_.guarded_instructions;
    Access acc;
    acc.site = site, acc.line = lines_.line(), acc.access = access, acc.space = space, acc.width = width;
    acc.guard = ins.guard, acc.guard_negated = ins.guard_negated, acc.body = ins.body;
    acc.base_kind = a.kind == Address::Absolute   ? Access::Base::Absolute
                    : a.kind == Address::Variable ? Access::Base::Variable
                                                  : Access::Base::Register;
    acc.base = a.base, acc.base32 = base_bytes == 4, acc.offset = a.offset, acc.nested = nested;
    acc.root = a.kind == Address::Register && base_bytes == 8 ? root_of(a.base) : -1;
    acc.address = *addr_op;
    // A register rooted at a parameter has its offset's zeros: of use only to
    // the fence through that parameter's window (global, 64-bit).
    if (a.kind == Address::Register && (root_of(a.base) < 0 || (space == "global" && acc.root >= 0)))
      acc.zeros = facts_.zeros_at(a.base, piece_);
    acc.frame_bytes = depot_bytes_;
    for (const std::string& d : dests) acc.dests.emplace_back(d, static_cast<unsigned>(std::max(0, regs_.bytes(d))));
    window = space != "global";
    CheckCode cc = check_code(acc);
    code = std::move(cc.code);
    fail = std::move(cc.fail);
    built = std::move(acc);
    return true;
  }

  // The instruction again, predicated on `pred` ("" keeps its own guard).
  static std::string ins_text(const Instruction& ins, const std::string& pred) {
    if (!pred.empty()) return "@" + pred + " " + ins.body;
    if (ins.guard.empty()) return ins.body;
    return "@" + std::string(ins.guard_negated ? "!" : "") + ins.guard + " " + ins.body;
  }

  // What bounds_proof.h needs of this function: its parameters' spans, its static shared arrays.
  BoundsInput bounds_input(const std::string& entry) const {
    BoundsInput b = options_.bounds;
    b.entry = entry;
    for (const auto* m : {&vars_, &local_vars_})
      for (const auto& [name, v] : *m)
        if (v.space == "shared" && v.bytes >= 0 && !v.is_extern) b.shared[name] = SharedArray{v.bytes, v.align};
        else if (v.space == "shared" && v.is_extern) b.extern_shared[name] = v.align;
    return b;
  }

  // Once a function: the block's shared window and the thread's frame.
  std::string prologue(bool window) const {
    if (!window) return "";
    std::vector<SharedVar> shared;
    for (const auto* m : {&vars_, &local_vars_})
      for (const auto& [name, v] : *m)
        if (v.space == "shared") shared.push_back({name, v.bytes});
    return window_prologue(shared, depot_, depot_bytes_);
  }

  const std::vector<Piece>& pieces_;
  const std::map<std::string, Var>& vars_;
  const std::set<std::string>& defined_;
  GuardedPtx& out_;
  Registers regs_;
  std::map<std::string, Var> local_vars_;
  std::string fn_, depot_;
  long long depot_bytes_ = 0;
  StudentLines lines_;
  unsigned groups_ = 0;  // group ids, unique in the module
  unsigned loops_ = 0;   // proven loops, unique in the module
  LoopScratch scratch_;  // the loop checks' registers, per function
  CacheRegs cache_;      // remembered loop checks' registers, per function
  std::map<size_t, size_t> site_of_;  // piece -> its site (this function)
  std::map<size_t, Access> built_;    // piece -> its check (this function), for copies
  std::map<std::string, int> roots_;  // address register -> kernel parameter (access_roots.h)
  AddressFacts facts_;                // known low zero bits of address registers (this function)
  std::set<size_t> unalign_;          // barriers of versioned loops, emitted non-aligned (this function)
  size_t piece_ = 0;                  // the piece memory() is rewriting
  std::set<size_t> bounded_;          // pieces in range by their bounds (this function)
  GuardOptions options_;
};

}  // namespace

// long: the module-level steps in their order (declarations, functions, table), each a few lines.
GuardedPtx guard_ptx(const std::string& ptx, const GuardOptions& options) {
  GuardedPtx out;
  out.memory_instructions = count_memory_instructions(ptx);
  if (ptx.find(kTableName) != std::string::npos) {
    out.error = "this PTX is already guarded";
    return out;
  }
  const std::vector<Piece> pieces = split_ptx(ptx);
  // Module scope: variables, functions, the student's file ids.
  std::map<std::string, Var> vars;
  std::set<std::string> defined;
  const std::set<int> student_files = student_file_ids(pieces, options.student_file);
  std::vector<Function> functions;
  for (size_t i = 0; i < pieces.size(); ++i) {
    const Piece& p = pieces[i];
    if (p.kind == PieceKind::Header) {
      Function f;
      f.header = i;
      f.name = function_name(p.text);
      size_t j = i + 1;
      while (j < pieces.size() && pieces[j].kind == PieceKind::Space) ++j;
      if (j >= pieces.size() || pieces[j].kind != PieceKind::Open) {
        out.error = "the PTX of function " + f.name + " has no body the guard can read";
        return out;
      }
      f.open = j;
      int depth = 0;
      for (; j < pieces.size(); ++j) {
        if (pieces[j].kind == PieceKind::Open) ++depth;
        if (pieces[j].kind == PieceKind::Close && --depth == 0) break;
      }
      if (j >= pieces.size()) {
        out.error = "the PTX of function " + f.name + " does not end";
        return out;
      }
      f.close = j;
      f.has_body = true;
      defined.insert(f.name);
      functions.push_back(f);
      i = j;
    } else if (p.kind == PieceKind::Stmt) {
      if (auto d = parse_decl(p.text)) {
        if (d->space == "global" || d->space == "shared" || d->space == "local" || d->space == "const")
          for (const std::string& n : d->names) {
            vars[n] = Var{d->space, d->bytes, std::max(1u, d->align), d->is_extern};
            if (d->space == "global" && !d->is_extern && d->bytes > 0) out.module_globals.push_back(n);
            if (d->space == "shared") out.shared_names.push_back(n);
          }
      }
    }
  }
  // Rewrite, function by function; module text passes through, with the
  // guard's two variables after .address_size.
  Rewriter rw(pieces, vars, defined, student_files, options, out);
  std::string text;
  text.reserve(ptx.size() * 3);
  bool declared = false;
  size_t next_fn = 0;
  for (size_t i = 0; i < pieces.size(); ++i) {
    const Piece& p = pieces[i];
    if (next_fn < functions.size() && functions[next_fn].header == i) {
      const Function& f = functions[next_fn++];
      for (size_t k = f.header; k < f.open; ++k) text += pieces[k].text;
      rw.function(f, text);
      i = f.close;
      continue;
    }
    if (p.kind == PieceKind::Directive) rw.directive(p.text);
    text += p.text;
    if (!declared && p.kind == PieceKind::Directive && squeeze(p.text).rfind(".address_size", 0) == 0) {
      text += module_declarations();
      declared = true;
    }
  }
  if (!declared && out.error.empty()) out.error = "the PTX has no .address_size directive";
  if (!out.error.empty()) return out;
  out.ptx = std::move(text);
  out.ok = true;
  return out;
}

size_t count_memory_instructions(const std::string& ptx) {
  static const std::regex mem(R"(^(@!?\S+\s+)?(ld|ldu|st|atom|red)(\.\S*)?\s)");
  size_t n = 0;
  for (const Piece& p : split_ptx(ptx)) {
    if (p.kind != PieceKind::Stmt) continue;
    const std::string s = squeeze(p.text) + " ";
    std::smatch m;
    if (!std::regex_search(s, m, mem)) continue;
    const std::string op = m[2].str() + m[3].str() + ".";
    if (op.find(".param.") != std::string::npos || op.find(".const.") != std::string::npos ||
        op.find(".const[") != std::string::npos)
      continue;
    ++n;
  }
  return n;
}

size_t count_marked_sites(const std::string& guarded) {
  size_t n = 0;
  for (size_t p = guarded.find("// cudaviz guard: site "); p != std::string::npos;
       p = guarded.find("// cudaviz guard: site ", p + 1))
    ++n;
  return n;
}

}  // namespace cv::usercode::guard
