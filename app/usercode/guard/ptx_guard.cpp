#include "usercode/guard/ptx_guard.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "usercode/guard/guard_abi.h"
#include "usercode/guard/ptx_text.h"

namespace cv::usercode::guard {
namespace {

// Instructions that touch no memory (registers, control flow, barriers):
// passed through. Anything not here and not checked below is refused.
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

constexpr unsigned kUnrolled = 4;  // table entries compared without the loop

bool is_memory_root(const std::string& r) {
  return r == "ld" || r == "ldu" || r == "st" || r == "atom" || r == "red";
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

struct Function {
  size_t header = 0, open = 0, close = 0;  // piece indexes
  std::string name;
  bool has_body = false;
};

std::string basename_of(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

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
           GuardedPtx& out)
      : pieces_(pieces), vars_(module_vars), defined_(defined_functions),
        student_files_(student_files), out_(out) {}

  // Tracks the student's line through every .loc, inside functions or not.
  void directive(const std::string& text) {
    const std::string t = squeeze(text);
    if (t.rfind(".loc ", 0) != 0) return;
    std::istringstream in(t.substr(5));
    int file = 0, line = 0;
    in >> file >> line;
    if (student_files_.count(file) && line > 0) {
      line_ = line;
      return;
    }
    const size_t at = t.find("inlined_at ");
    if (at != std::string::npos) {
      std::istringstream in2(t.substr(at + 11));
      int f2 = 0, l2 = 0;
      in2 >> f2 >> l2;
      if (student_files_.count(f2) && l2 > 0) line_ = l2;
    }
  }

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
            local_vars_[n] = Var{d->space, d->bytes, std::max(1u, d->align)};
      }
    }
    std::string body, fails;
    bool needs_regs = false, needs_window = false, prologue_done = false;
    const size_t first_site = out_.sites.size();
    std::string prologue_at;  // where the prologue goes (body text offset)
    size_t prologue_pos = std::string::npos;
    int depth = 0;  // of { } blocks inside the body
    for (size_t i = f.open + 1; i < f.close; ++i) {
      const Piece& p = pieces_[i];
      if (p.kind == PieceKind::Directive) directive(p.text);
      if (p.kind == PieceKind::Open) ++depth;
      if (p.kind == PieceKind::Close) --depth;
      const bool decl = p.kind == PieceKind::Stmt && !squeeze(p.text).empty() &&
                        squeeze(p.text)[0] == '.';
      if (!prologue_done && (p.kind == PieceKind::Label || (p.kind == PieceKind::Stmt && !decl) ||
                             p.kind == PieceKind::Open)) {
        prologue_pos = body.size();
        prologue_done = true;
      }
      Instruction ins;
      if (p.kind != PieceKind::Stmt || decl || !parse_instruction(p.text, ins)) {
        body += p.text;
        continue;
      }
      const std::string& root = ins.parts[0];
      if (is_memory_root(root)) {
        std::string code, fail;
        bool window = false;
        if (!memory(ins, depth > 0, code, fail, window)) {
          body += p.text;
          continue;
        }
        if (!code.empty()) needs_regs = true;
        needs_window = needs_window || window;
        body += code;
        fails += fail;
        continue;
      }
      if (root == "call") call(ins);
      else if (!plain_opcodes().count(root)) refuse(refused_what(root, ins.opcode));
      body += p.text;
    }
    if (needs_regs && prologue_pos != std::string::npos)
      body.insert(prologue_pos, prologue(needs_window));
    text += pieces_[f.open].text;
    if (needs_regs)
      text += "\n\t.reg .pred %cvg_p<3>;\n\t.reg .b32 %cvg_r<2>;\n\t.reg .b64 %cvg_d<7>;\n"
              "\t.reg .b64 %cvg_s<4>;\n";
    text += body;
    text += fails;
    text += pieces_[f.close].text;
    (void)first_site;
    local_vars_.clear();
  }

 private:
  void refuse(const std::string& what) {
    std::string where = line_ ? "line " + std::to_string(line_) : "code the prelude added";
    if (out_.error.empty()) out_.error_line = line_;
    out_.error += (out_.error.empty() ? "" : "\n") + where + ": " + what +
                  ": the guard cannot check it, so the kernel is refused (turn the guard off "
                  "to run it unchecked).";
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

  const Var* find_var(const std::string& name) const {
    if (auto it = local_vars_.find(name); it != local_vars_.end()) return &it->second;
    if (auto it = vars_.find(name); it != vars_.end()) return &it->second;
    return nullptr;
  }

  // The code for one memory instruction; false when it is not one the guard
  // checks (param / const space).
  bool memory(const Instruction& ins, bool nested, std::string& code, std::string& fail, bool& window) {
    const std::string& root = ins.parts[0];
    std::string space = "generic";
    unsigned vec = 1, type = 0;
    for (size_t k = 1; k < ins.parts.size(); ++k) {
      const std::string& q = ins.parts[k];
      if (q == "param" || q == "const" || q.rfind("const[", 0) == 0) return false;
      if (q == "global" || q == "local") space = q;
      else if (q == "shared" || q == "shared::cta") space = "shared";
      else if (q.rfind("shared::", 0) == 0) {
        refuse("an access to another block's shared memory (" + ins.opcode + ")");
        return false;
      } else if (q == "v2" || q == "v4" || q == "v8") vec = q[1] - '0';
      else if (unsigned b = type_bytes(q)) type = b;
    }
    const unsigned width = vec * type;
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
    GuardSite s{line_, access, space, width, ins.opcode, fn_, false};
    // A named variable at a fixed offset inside it: proven here.
    if (a.kind == Address::Variable && var->bytes >= 0 && a.offset >= 0 &&
        a.offset + static_cast<long long>(width) <= var->bytes && a.offset % width == 0 &&
        var->align % width == 0) {
      s.proven = true;
      out_.sites.push_back(s);
      ++out_.checked_instructions;
      code = "\t// cudaviz guard: site " + std::to_string(site) + " proven (" + a.base + "+" +
             std::to_string(a.offset) + ")\n\t" + ins_text(ins, "") + ";";
      return true;
    }
    out_.sites.push_back(s);
    ++out_.checked_instructions;
    const std::string L = "$cvg_" + std::to_string(site) + "_";
    std::ostringstream c;
    c << "\t// cudaviz guard: site " << site << " line " << line_ << ": " << access << " of "
      << width << " bytes (" << space << ")\n";
    if (!ins.guard.empty())
      c << "\t@" << (ins.guard_negated ? "" : "!") << ins.guard << " bra " << L << "skip;\n";
    // The address, as 64 bits, in %cvg_d0.
    const std::string off = std::to_string(a.offset);
    if (a.kind == Address::Absolute) c << "\tmov.u64 %cvg_d0, " << off << ";\n";
    else if (a.kind == Address::Variable) {
      c << "\tmov.u64 %cvg_d0, " << a.base << ";\n";
      if (a.offset) c << "\tadd.s64 %cvg_d0, %cvg_d0, " << off << ";\n";
    } else if (base_bytes == 4) {
      c << "\tcvt.u64.u32 %cvg_d0, " << a.base << ";\n";
      if (a.offset) c << "\tadd.s64 %cvg_d0, %cvg_d0, " << off << ";\n";
    } else if (a.offset) {
      c << "\tadd.s64 %cvg_d0, " << a.base << ", " << off << ";\n";
    } else {
      c << "\tmov.b64 %cvg_d0, " << a.base << ";\n";
    }
    if (width > 1) c << "\tand.b64 %cvg_d6, %cvg_d0, " << width - 1 << ";\n";  // tested at `checked`
    const std::string W = std::to_string(width);
    auto window_check = [&](const char* reg, const char* lo, const char* hi) {
      c << "\tadd.s64 %cvg_d1, " << reg << ", " << W << ";\n\tsetp.ge.u64 %cvg_p0, " << reg
        << ", " << lo << ";\n\tsetp.le.and.u64 %cvg_p0, %cvg_d1, " << hi << ", %cvg_p0;\n";
    };
    // The first kUnrolled entries at fixed offsets (ptxas reads them as constant
    // operands; unused entries are {0, 0} and match nothing), then a loop over the rest.
    auto table_check = [&] {
      c << "\tadd.s64 %cvg_d1, %cvg_d0, " << W << ";\n";
      for (unsigned e = 0; e < kUnrolled; ++e)
        c << "\tld.const.v2.u64 {%cvg_d2, %cvg_d3}, [" << kTableName << "+" << 16 + 16 * e << "];\n"
          << "\tsetp.ge.u64 %cvg_p0, %cvg_d0, %cvg_d2;\n\tsetp.le.and.u64 %cvg_p0, %cvg_d1, %cvg_d3, %cvg_p0;\n"
          << "\t@%cvg_p0 bra " << L << "checked;\n";
      c << "\tld.const.u32 %cvg_r0, [" << kTableName << "];\n\tadd.s32 %cvg_r0, %cvg_r0, -" << kUnrolled
        << ";\n\tmov.u64 %cvg_d4, " << kTableName << ";\n\tadd.s64 %cvg_d4, %cvg_d4, " << 16 * kUnrolled << ";\n"
        << L << "loop:\n\tsetp.gt.s32 %cvg_p0, %cvg_r0, 0;\n\t@!%cvg_p0 bra " << L << "checked;\n"
        << "\tld.const.v2.u64 {%cvg_d2, %cvg_d3}, [%cvg_d4+16];\n\tadd.s64 %cvg_d4, %cvg_d4, 16;\n"
        << "\tadd.s32 %cvg_r0, %cvg_r0, -1;\n\tsetp.ge.u64 %cvg_p0, %cvg_d0, %cvg_d2;\n"
        << "\tsetp.le.and.u64 %cvg_p0, %cvg_d1, %cvg_d3, %cvg_p0;\n\t@!%cvg_p0 bra " << L << "loop;\n";
    };
    if (space == "global") {
      table_check();
    } else if (space == "shared") {
      window = true;
      window_check("%cvg_d0", "%cvg_s0", "%cvg_s1");
    } else if (space == "local") {
      window = true;
      window_check("%cvg_d0", "%cvg_s2", "%cvg_s3");
    } else {
      window = true;
      c << "\tisspacep.shared %cvg_p2, %cvg_d0;\n\t@%cvg_p2 bra " << L << "sh;\n"
        << "\tisspacep.local %cvg_p2, %cvg_d0;\n\t@%cvg_p2 bra " << L << "lo;\n";
      table_check();
      c << "\tbra " << L << "checked;\n" << L << "sh:\n\tcvta.to.shared.u64 %cvg_d5, %cvg_d0;\n";
      window_check("%cvg_d5", "%cvg_s0", "%cvg_s1");
      c << "\tbra " << L << "checked;\n" << L << "lo:\n\tcvta.to.local.u64 %cvg_d5, %cvg_d0;\n";
      window_check("%cvg_d5", "%cvg_s2", "%cvg_s3");
    }
    c << L << "checked:\n";
    if (width > 1) c << "\tsetp.eq.and.u64 %cvg_p0, %cvg_d6, 0, %cvg_p0;\n";
    std::ostringstream tail;  // after the failure path: the instruction itself
    tail << L << "back:\n\t" << ins_text(ins, "%cvg_p0") << ";\n";
    if (!ins.guard.empty()) tail << L << "skip:\n";

    // Out of line: record the first failure, zero a load's destinations, go back.
    const char* rec = kRecordName;
    std::ostringstream f;
    f << L << "fail:\n\tatom.global.cas.b32 %cvg_r0, [" << rec << "], 0, 1;\n"
      << "\tsetp.eq.u32 %cvg_p1, %cvg_r0, 0;\n\t@!%cvg_p1 bra " << L << "zero;\n"
      << "\tmov.u32 %cvg_r1, " << site << ";\n\tst.global.u32 [" << rec << "+4], %cvg_r1;\n"
      << "\tmov.b64 %cvg_d5, %cvg_d0;\n";
    if (space == "generic") {
      f << "\tmov.u32 %cvg_r1, 1;\n\tisspacep.shared %cvg_p2, %cvg_d0;\n"
        << "\t@%cvg_p2 mov.u32 %cvg_r1, 2;\n\t@%cvg_p2 cvta.to.shared.u64 %cvg_d5, %cvg_d0;\n"
        << "\tisspacep.local %cvg_p2, %cvg_d0;\n\t@%cvg_p2 mov.u32 %cvg_r1, 3;\n"
        << "\t@%cvg_p2 cvta.to.local.u64 %cvg_d5, %cvg_d0;\n";
    } else {
      f << "\tmov.u32 %cvg_r1, " << (space == "global" ? 1 : space == "shared" ? 2 : 3) << ";\n";
    }
    f << "\tst.global.u32 [" << rec << "+8], %cvg_r1;\n"
      << "\tand.b64 %cvg_d1, %cvg_d0, " << (width - 1) << ";\n\tsetp.ne.u64 %cvg_p1, %cvg_d1, 0;\n"
      << "\tselp.u32 %cvg_r1, 2, 1, %cvg_p1;\n\tst.global.u32 [" << rec << "+12], %cvg_r1;\n"
      << "\tst.global.u64 [" << rec << "+16], %cvg_d5;\n";
    if (window) {
      f << "\tst.global.u64 [" << rec << "+24], %cvg_s0;\n\tst.global.u64 [" << rec << "+32], %cvg_s1;\n"
        << "\tst.global.u64 [" << rec << "+40], %cvg_s2;\n\tst.global.u64 [" << rec << "+48], %cvg_s3;\n";
    }
    const char* ids[6] = {"%tid.x", "%tid.y", "%tid.z", "%ctaid.x", "%ctaid.y", "%ctaid.z"};
    for (int k = 0; k < 6; ++k)
      f << "\tmov.u32 %cvg_r1, " << ids[k] << ";\n\tst.global.u32 [" << rec << "+" << 56 + 4 * k
        << "], %cvg_r1;\n";
    f << L << "zero:\n";
    for (const std::string& d : dests) {
      const int b = regs_.bytes(d);
      if (b == 2 || b == 4 || b == 8) f << "\tmov.b" << b * 8 << " " << d << ", 0;\n";
    }
    f << "\tmov.pred %cvg_p0, 0;\n\tbra " << L << "back;\n";
    if (nested) {
      // Inside a { } block (inline PTX): labels there are not seen from the
      // function's end, so the failure path stays in line, jumped over.
      c << "\t@%cvg_p0 bra " << L << "back;\n" << f.str() << tail.str();
    } else {
      c << "\t@!%cvg_p0 bra " << L << "fail;\n" << tail.str();
      fail = f.str();
    }
    code = c.str();
    return true;
  }

  // The instruction again, predicated on `pred` ("" keeps its own guard).
  static std::string ins_text(const Instruction& ins, const std::string& pred) {
    if (!pred.empty()) return "@" + pred + " " + ins.body;
    if (ins.guard.empty()) return ins.body;
    return "@" + std::string(ins.guard_negated ? "!" : "") + ins.guard + " " + ins.body;
  }

  // Once a function: the block's shared window and the thread's frame.
  std::string prologue(bool window) const {
    std::ostringstream c;
    c << "\t// cudaviz guard: the shared window and the local frame\n";
    if (!window) return c.str();
    bool first = true;
    std::vector<std::pair<std::string, Var>> shared;
    for (const auto* m : {&vars_, &local_vars_})
      for (const auto& [name, v] : *m)
        if (v.space == "shared") shared.emplace_back(name, v);
    for (const auto& [name, v] : shared) {
      if (v.bytes < 0)
        c << "\tmov.u32 %cvg_r1, %dynamic_smem_size;\n\tcvt.u64.u32 %cvg_d4, %cvg_r1;\n";
      const std::string size = v.bytes < 0 ? "%cvg_d4" : std::to_string(v.bytes);
      if (first) {
        c << "\tmov.u64 %cvg_s0, " << name << ";\n\tadd.s64 %cvg_s1, %cvg_s0, " << size << ";\n";
        first = false;
      } else {
        c << "\tmov.u64 %cvg_d5, " << name << ";\n\tmin.u64 %cvg_s0, %cvg_s0, %cvg_d5;\n"
          << "\tadd.s64 %cvg_d5, %cvg_d5, " << size << ";\n\tmax.u64 %cvg_s1, %cvg_s1, %cvg_d5;\n";
      }
    }
    if (first) c << "\tmov.u64 %cvg_s0, 0;\n\tmov.u64 %cvg_s1, 0;\n";
    if (!depot_.empty())
      c << "\tmov.u64 %cvg_s2, " << depot_ << ";\n\tadd.s64 %cvg_s3, %cvg_s2, " << depot_bytes_ << ";\n";
    else
      c << "\tmov.u64 %cvg_s2, 0;\n\tmov.u64 %cvg_s3, 0;\n";
    return c.str();
  }

  const std::vector<Piece>& pieces_;
  const std::map<std::string, Var>& vars_;
  const std::set<std::string>& defined_;
  const std::set<int>& student_files_;
  GuardedPtx& out_;
  Registers regs_;
  std::map<std::string, Var> local_vars_;
  std::string fn_, depot_;
  long long depot_bytes_ = 0;
  int line_ = 0;
};

}  // namespace

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
  std::set<int> student_files;
  std::vector<Function> functions;
  const std::string want = basename_of(options.student_file);
  for (size_t i = 0; i < pieces.size(); ++i) {
    const Piece& p = pieces[i];
    if (p.kind == PieceKind::Directive) {
      const std::string t = squeeze(p.text);
      if (t.rfind(".file ", 0) == 0) {
        std::istringstream in(t.substr(6));
        int id = 0;
        std::string name;
        in >> id >> name;
        if (name.size() >= 2 && name.front() == '"') name = name.substr(1, name.find('"', 1) - 1);
        if (!want.empty() && basename_of(name) == want) student_files.insert(id);
      }
    } else if (p.kind == PieceKind::Header) {
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
            vars[n] = Var{d->space, d->bytes, std::max(1u, d->align)};
            if (d->space == "global" && !d->is_extern && d->bytes > 0) out.module_globals.push_back(n);
            if (d->space == "shared") out.shared_names.push_back(n);
          }
      }
    }
  }
  // Rewrite, function by function; module text passes through, with the
  // guard's two variables after .address_size.
  Rewriter rw(pieces, vars, defined, student_files, out);
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
      text += "\n\n// cudaviz guard (docs/guard.md): the launch's buffers and the first failed access\n";
      text += ".const .align 16 .b8 " + std::string(kTableName) + "[" +
              std::to_string(sizeof(Table)) + "];\n";
      text += ".global .align 16 .b8 " + std::string(kRecordName) + "[" +
              std::to_string(sizeof(Record)) + "];";
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
