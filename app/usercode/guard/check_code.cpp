#include "usercode/guard/check_code.h"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <optional>
#include <sstream>

#include "usercode/guard/guard_abi.h"

namespace cv::usercode::guard {
namespace {

constexpr unsigned kUnrolled = 4;  // table entries compared without the loop

size_t param_offset(int root) { return offsetof(Table, param) + sizeof(ParamWindow) * static_cast<size_t>(root); }

// %cvg_p0 = [reg, reg + width) lies inside the space's window (shared, local)
// or inside one entry of the table (global). A table match jumps to L"guarded".
// The start is compared signed: every window lies below 2^63, so an address
// at the top of the 64-bit space fails there instead of wrapping `reg +
// width` around to a small end that would pass.
void range_check(std::ostream& c, const std::string& space, const std::string& L, const char* reg,
                 const std::string& width, int root = -1) {
  if (space != "global") {
    if (space == "shared")
      c << "\tcvt.u64.u32 %cvg_d2, %cvg_w0;\n\tcvt.u64.u32 %cvg_d3, %cvg_w1;\n\tadd.s64 %cvg_d3, %cvg_d3, %cvg_d2;\n";
    else
      c << "\tmov.b64 %cvg_d2, %cvg_l0;\n\tmov.b64 %cvg_d3, %cvg_l1;\n";
    c << "\tadd.s64 %cvg_d1, " << reg << ", " << width << ";\n\tsetp.ge.s64 %cvg_p0, " << reg
      << ", %cvg_d2;\n\tsetp.le.and.u64 %cvg_p0, %cvg_d1, %cvg_d3, %cvg_p0;\n";
    return;
  }
  c << "\tadd.s64 %cvg_d1, " << reg << ", " << width << ";\n";
  const bool rooted = root >= 0 && root < static_cast<int>(kParamWindows);
  if (rooted)
    c << "\tld.const.v2.u64 {%cvg_d2, %cvg_d3}, [" << kTableName << "+" << param_offset(root) << "];\n"
      << "\tsetp.ge.s64 %cvg_p0, " << reg << ", %cvg_d2;\n\tsetp.le.and.u64 %cvg_p0, %cvg_d1, %cvg_d3, %cvg_p0;\n"
      << "\t@%cvg_p0 bra " << L << "guarded;\n";
  // The first kUnrolled entries at fixed offsets (ptxas reads them as constant
  // operands; unused entries are {0, 0} and match nothing), then a loop over
  // the rest. Past a parameter's own buffer (the rare way: a pointer into
  // another buffer, or out of range) only the loop: n-body's guarded PTX held
  // 17 such scans, which the driver's JIT compiles on a student's first edit.
  const unsigned unrolled = rooted ? 0 : kUnrolled;
  for (unsigned e = 0; e < unrolled; ++e)
    c << "\tld.const.v2.u64 {%cvg_d2, %cvg_d3}, [" << kTableName << "+" << 16 + 16 * e << "];\n"
      << "\tsetp.ge.s64 %cvg_p0, " << reg << ", %cvg_d2;\n\tsetp.le.and.u64 %cvg_p0, %cvg_d1, %cvg_d3, %cvg_p0;\n"
      << "\t@%cvg_p0 bra " << L << "guarded;\n";
  c << "\tld.const.u32 %cvg_r0, [" << kTableName << "];\n";
  if (unrolled) c << "\tadd.s32 %cvg_r0, %cvg_r0, -" << unrolled << ";\n";
  c << "\tmov.u64 %cvg_d4, " << kTableName << ";\n";
  if (unrolled) c << "\tadd.s64 %cvg_d4, %cvg_d4, " << 16 * unrolled << ";\n";
  c << L << "loop:\n\tsetp.gt.s32 %cvg_p0, %cvg_r0, 0;\n\t@!%cvg_p0 bra " << L << "guarded;\n"
    << "\tld.const.v2.u64 {%cvg_d2, %cvg_d3}, [%cvg_d4+16];\n\tadd.s64 %cvg_d4, %cvg_d4, 16;\n"
    << "\tadd.s32 %cvg_r0, %cvg_r0, -1;\n\tsetp.ge.s64 %cvg_p0, " << reg << ", %cvg_d2;\n"
    << "\tsetp.le.and.u64 %cvg_p0, %cvg_d1, %cvg_d3, %cvg_p0;\n\t@!%cvg_p0 bra " << L << "loop;\n";
}

// Out of line: record the first failure, zero a load's destinations, go on
// past the instruction.
std::string fail_path(const Access& a, const std::string& L) {
  const char* rec = kRecordName;
  std::ostringstream f;
  f << L << "fail:\n\tatom.global.cas.b32 %cvg_r0, [" << rec << "], 0, 1;\n"
    << "\tsetp.eq.u32 %cvg_p1, %cvg_r0, 0;\n\t@!%cvg_p1 bra " << L << "zero;\n"
    << "\tmov.u32 %cvg_r1, " << a.site << ";\n\tst.global.u32 [" << rec << "+4], %cvg_r1;\n"
    << "\tmov.b64 %cvg_d5, %cvg_d0;\n";
  if (a.space == "generic") {
    f << "\tmov.u32 %cvg_r1, 1;\n\tisspacep.shared %cvg_p2, %cvg_d0;\n"
      << "\t@%cvg_p2 mov.u32 %cvg_r1, 2;\n\t@%cvg_p2 cvta.to.shared.u64 %cvg_d5, %cvg_d0;\n"
      << "\tisspacep.local %cvg_p2, %cvg_d0;\n\t@%cvg_p2 mov.u32 %cvg_r1, 3;\n"
      << "\t@%cvg_p2 cvta.to.local.u64 %cvg_d5, %cvg_d0;\n";
  } else {
    f << "\tmov.u32 %cvg_r1, " << (a.space == "global" ? 1 : a.space == "shared" ? 2 : 3) << ";\n";
  }
  f << "\tst.global.u32 [" << rec << "+8], %cvg_r1;\n"
    << "\tand.b64 %cvg_d1, %cvg_d0, " << (a.width - 1) << ";\n\tsetp.ne.u64 %cvg_p1, %cvg_d1, 0;\n"
    << "\tselp.u32 %cvg_r1, 2, 1, %cvg_p1;\n\tst.global.u32 [" << rec << "+12], %cvg_r1;\n"
    << "\tst.global.u64 [" << rec << "+16], %cvg_d5;\n";
  if (a.space != "global") {
    f << "\tcvt.u64.u32 %cvg_d2, %cvg_w0;\n\tcvt.u64.u32 %cvg_d3, %cvg_w1;\n\tadd.s64 %cvg_d3, %cvg_d3, %cvg_d2;\n"
      << "\tst.global.u64 [" << rec << "+24], %cvg_d2;\n\tst.global.u64 [" << rec << "+32], %cvg_d3;\n"
      << "\tst.global.u64 [" << rec << "+40], %cvg_l0;\n\tst.global.u64 [" << rec << "+48], %cvg_l1;\n";
  }
  const char* ids[6] = {"%tid.x", "%tid.y", "%tid.z", "%ctaid.x", "%ctaid.y", "%ctaid.z"};
  for (int k = 0; k < 6; ++k)
    f << "\tmov.u32 %cvg_r1, " << ids[k] << ";\n\tst.global.u32 [" << rec << "+" << 56 + 4 * k
      << "], %cvg_r1;\n";
  f << L << "zero:\n";
  for (const auto& [reg, b] : a.dests)
    if (b == 2 || b == 4 || b == 8) f << "\tmov.b" << b * 8 << " " << reg << ", 0;\n";
  f << "\tbra " << L << "after;\n";
  return f.str();
}

// The smallest width class (a power of two, at most 32) holding `bytes`; 0 when none does.
unsigned width_class(long long bytes) {
  for (unsigned k = 0; k < kWidthClasses; ++k)
    if (bytes <= (1ll << k)) return k + 1;  // class index + 1
  return 0;
}

int log2_of(unsigned w) {
  int k = 0;
  while ((1u << k) < w) ++k;
  return k;
}

// A fence's compare: %cvg_p0 = [R, R + 2^k) lies inside its window: an
// argument's buffer (global: `root`, the runner's room for class k), the
// shared window (%cvg_kK, set once a function) or the local frame (an
// immediate). Below the window's start the unsigned difference wraps to a
// huge value, so one compare covers both ends. `r32`: R is a 32-bit register.
void fence_compare(std::ostream& c, const std::string& space, int root, const std::string& R, bool r32, unsigned k,
                   long long frame_bytes) {
  if (space == "global") {
    c << "\tld.const.u64 %cvg_d2, [" << kTableName << "+" << param_offset(root) << "];\n"
      << "\tld.const.u64 %cvg_d3, [" << kTableName << "+" << param_offset(root) + offsetof(ParamWindow, room) + 8 * k
      << "];\n\tsub.s64 %cvg_d1, " << R << ", %cvg_d2;\n\tsetp.lt.u64 %cvg_p0, %cvg_d1, %cvg_d3;\n";
  } else if (space == "shared" && r32) {
    c << "\tsub.s32 %cvg_r2, " << R << ", %cvg_w0;\n\tsetp.lt.u32 %cvg_p0, %cvg_r2, %cvg_k" << k << ";\n";
  } else if (space == "shared") {
    c << "\tcvt.u64.u32 %cvg_d2, %cvg_w0;\n\tsub.s64 %cvg_d1, " << R << ", %cvg_d2;\n\tcvt.u64.u32 %cvg_d3, %cvg_k" << k
      << ";\n\tsetp.lt.u64 %cvg_p0, %cvg_d1, %cvg_d3;\n";
  } else {
    const long long room = std::max(0ll, frame_bytes - (1ll << k) + 1);
    if (r32) c << "\tcvt.u64.u32 %cvg_d1, " << R << ";\n\tsub.s64 %cvg_d1, %cvg_d1, %cvg_l0;\n";
    else c << "\tsub.s64 %cvg_d1, " << R << ", %cvg_l0;\n";
    c << "\tsetp.lt.u64 %cvg_p0, %cvg_d1, " << room << ";\n";
  }
}

// The fence (docs/guard.md "Fences"): the access's base register minus its
// window's start compared, unsigned, with the room its width class has
// there (computed by the runner for a kernel argument's buffer, once a
// function for the shared window, an immediate for the local frame), the
// alignment only where the address analysis cannot
// prove it, then the instruction itself predicated on the result (a load's
// registers zeroed first, so ptxas keeps no old value alive) and issued
// before the one branch, which goes out of line only when the fence says no.
// Out of line: an access through an argument's pointer is guarded exactly
// against every buffer (a pointer into another buffer, or at the very end
// of its own with a constant offset, is fine: it runs there); anything else
// is recorded. Empty when the access needs the general form.
// long: the three windows' forms of one fence side by side, so that they stay alike.
std::optional<CheckCode> fence(const Access& a, const std::string& L, std::ostringstream& c) {
  const bool rooted = a.space == "global" && a.root >= 0 && a.root < static_cast<int>(kParamWindows);
  if (a.nested || a.base_kind != Access::Base::Register || (!rooted && a.space != "shared" && a.space != "local"))
    return std::nullopt;
  if (rooted && a.base32) return std::nullopt;
  if (a.address.empty() || a.body.find(a.address) == std::string::npos) return std::nullopt;
  // A load whose destination is also read by it (the address, an atomic's operand) cannot be zeroed first.
  for (const auto& [reg, bytes] : a.dests) {
    if (bytes != 2 && bytes != 4 && bytes != 8) return std::nullopt;
    const std::string rest = a.body.substr(a.body.find(a.address));
    for (size_t at = rest.find(reg); at != std::string::npos; at = rest.find(reg, at + 1)) {
      const size_t e = at + reg.size();
      if (e >= rest.size() || !std::isdigit(static_cast<unsigned char>(rest[e]))) return std::nullopt;
    }
  }
  const std::string W = std::to_string(a.width), off = std::to_string(a.offset);
  // The register compared: the base itself when [base, base + 2^k) holds the
  // access (a constant offset folded into the width class), else the address.
  unsigned k1 = a.offset >= 0 ? width_class(a.offset + a.width) : 0;
  std::string R = a.base;
  const char* wide = a.base32 ? "cvt.u64.u32 %cvg_d0, " : "mov.b64 %cvg_d0, ";
  bool have_d0 = false;
  auto address = [&](std::ostream& o) {  // %cvg_d0 = the access's address, 64-bit
    o << "\t" << wide << a.base << ";\n";
    if (a.offset) o << "\tadd.s64 %cvg_d0, %cvg_d0, " << off << ";\n";
  };
  if (!k1) {
    address(c);
    have_d0 = true;
    R = "%cvg_d0";
    k1 = width_class(a.width);
  }
  const unsigned k = k1 - 1;
  fence_compare(c, a.space, a.root, R, a.base32 && !have_d0, k, a.frame_bytes);
  // Alignment: proven when the base's known low zero bits cover the width
  // (for an argument's pointer, the table's class says the pointer is aligned).
  if (a.width > 1 && !(a.zeros >= log2_of(a.width) && a.offset % a.width == 0)) {
    if (!have_d0) address(c), have_d0 = true;
    c << "\tand.b64 %cvg_d6, %cvg_d0, " << a.width - 1 << ";\n\tsetp.eq.and.u64 %cvg_p0, %cvg_d6, 0, %cvg_p0;\n";
  }
  for (const auto& [reg, bytes] : a.dests) c << "\tmov.b" << bytes * 8 << " " << reg << ", 0;\n";
  c << "\t@%cvg_p0 " << a.body << ";\n\t@!%cvg_p0 bra " << L << (rooted ? "slow" : "fail") << ";\n" << L << "after:\n";
  std::ostringstream f;
  if (rooted) {
    f << L << "slow:\n";
    address(f);
    range_check(f, "global", L, "%cvg_d0", W, a.root);
    f << L << "guarded:\n";
    if (a.width > 1)
      f << "\tand.b64 %cvg_d6, %cvg_d0, " << a.width - 1 << ";\n\tsetp.eq.and.u64 %cvg_p0, %cvg_d6, 0, %cvg_p0;\n";
    f << "\t@!%cvg_p0 bra " << L << "fail;\n\t" << a.body << ";\n\tbra " << L << "after;\n";
  }
  std::ostringstream fail;
  fail << fail_path(a, L);
  std::string fp = fail.str();
  // The failure path reads the address from %cvg_d0: computed there.
  std::ostringstream head;
  address(head);
  fp.insert(fp.find(":\n") + 2, head.str());
  f << fp;
  return CheckCode{c.str(), f.str()};
}

}  // namespace

std::string window_check(const std::string& space, const std::string& prefix, const std::string& reg,
                         const std::string& width, int root) {
  std::ostringstream c;
  range_check(c, space, prefix, reg.c_str(), width, root);
  if (space == "global") c << prefix << "guarded:\n";
  return c.str();
}

std::string group_check(const AccessGroup& g, unsigned id, const std::string& slow, const GroupFacts& f) {
  const std::string L = "$cvg_g" + std::to_string(id) + "_";
  const int root = f.root;
  std::ostringstream c;
  c << "\t// cudaviz guard: group " << id << ": " << g.members.size() << " accesses through " << g.base
    << " guarded at once ([" << g.base << (g.lo < 0 ? "" : "+") << g.lo << ", " << g.base
    << (g.hi < 0 ? "" : "+") << g.hi << "), " << g.space << ", aligned to " << g.align << ")\n";
  // Fenced like one access whose width class holds the whole range (a
  // block tree's s[t] read and written, a pair of offsets[r], offsets[r + 1]):
  // a subtraction and one compare instead of both ends in 64 bits. What the
  // class rounds up past a buffer's end, or a pointer into another buffer,
  // takes the copy where every access is checked exactly.
  const bool rooted = g.space == "global" && root >= 0 && root < static_cast<int>(kParamWindows) && !g.base32;
  if (const unsigned k1 = g.lo >= 0 ? width_class(g.hi) : 0; k1 && (rooted || g.space == "shared" || g.space == "local")) {
    fence_compare(c, g.space, root, g.base, g.base32, k1 - 1, f.frame_bytes);
    if (g.align > 1 && f.zeros < log2_of(g.align)) {
      c << (g.base32 ? "\tcvt.u64.u32 %cvg_d0, " : "\tmov.b64 %cvg_d0, ") << g.base << ";\n"
        << "\tand.b64 %cvg_d6, %cvg_d0, " << g.align - 1 << ";\n\tsetp.eq.and.u64 %cvg_p0, %cvg_d6, 0, %cvg_p0;\n";
    }
    c << "\t@!%cvg_p0 bra " << slow << ";\n";
    return c.str();
  }
  if (g.base32) c << "\tcvt.u64.u32 %cvg_d0, " << g.base << ";\n";
  else c << "\tmov.b64 %cvg_d0, " << g.base << ";\n";
  c << "\tand.b64 %cvg_d6, %cvg_d0, " << g.align - 1 << ";\n";
  if (g.lo) c << "\tadd.s64 %cvg_d0, %cvg_d0, " << g.lo << ";\n";
  range_check(c, g.space, L, "%cvg_d0", std::to_string(g.hi - g.lo), root);
  c << L << "guarded:\n\tsetp.eq.and.u64 %cvg_p0, %cvg_d6, 0, %cvg_p0;\n\t@!%cvg_p0 bra " << slow << ";\n";
  return c.str();
}

CheckCode check_code(const Access& a) {
  const std::string L = "$cvg_" + std::to_string(a.site) + a.copy + "_";
  std::ostringstream c;
  // The marker is counted once per site (count_marked_sites): a copy says so differently.
  c << "\t// cudaviz guard: " << (a.copy.empty() ? "" : "copy of ") << "site " << a.site << " line "
    << a.line << ": " << a.access << " of " << a.width << " bytes (" << a.space << ")\n";
  if (!a.guard.empty())
    c << "\t@" << (a.guard_negated ? "" : "!") << a.guard << " bra " << L << "after;\n";
  if (std::optional<CheckCode> f = fence(a, L, c)) return *f;
  // The address, as 64 bits, in %cvg_d0.
  const std::string off = std::to_string(a.offset);
  if (a.base_kind == Access::Base::Absolute) c << "\tmov.u64 %cvg_d0, " << off << ";\n";
  else if (a.base_kind == Access::Base::Variable) {
    c << "\tmov.u64 %cvg_d0, " << a.base << ";\n";
    if (a.offset) c << "\tadd.s64 %cvg_d0, %cvg_d0, " << off << ";\n";
  } else if (a.base32) {
    c << "\tcvt.u64.u32 %cvg_d0, " << a.base << ";\n";
    if (a.offset) c << "\tadd.s64 %cvg_d0, %cvg_d0, " << off << ";\n";
  } else if (a.offset) {
    c << "\tadd.s64 %cvg_d0, " << a.base << ", " << off << ";\n";
  } else {
    c << "\tmov.b64 %cvg_d0, " << a.base << ";\n";
  }
  if (a.width > 1) c << "\tand.b64 %cvg_d6, %cvg_d0, " << a.width - 1 << ";\n";  // tested at `guarded`
  const std::string W = std::to_string(a.width);
  if (a.space == "global" || a.space == "shared" || a.space == "local") {
    range_check(c, a.space, L, "%cvg_d0", W);
  } else {
    c << "\tisspacep.shared %cvg_p2, %cvg_d0;\n\t@%cvg_p2 bra " << L << "sh;\n"
      << "\tisspacep.local %cvg_p2, %cvg_d0;\n\t@%cvg_p2 bra " << L << "lo;\n";
    range_check(c, "global", L, "%cvg_d0", W);
    c << "\tbra " << L << "guarded;\n" << L << "sh:\n\tcvta.to.shared.u64 %cvg_d5, %cvg_d0;\n";
    range_check(c, "shared", L, "%cvg_d5", W);
    c << "\tbra " << L << "guarded;\n" << L << "lo:\n\tcvta.to.local.u64 %cvg_d5, %cvg_d0;\n";
    range_check(c, "local", L, "%cvg_d5", W);
  }
  c << L << "guarded:\n";
  if (a.width > 1) c << "\tsetp.eq.and.u64 %cvg_p0, %cvg_d6, 0, %cvg_p0;\n";
  // The instruction itself, unpredicated: only a passed check reaches it, and
  // the failure path comes back past it. (A copy predicated on the check
  // would keep a load's old destination values alive across loops: n-body's
  // unrolled tile loop needed 96 registers that way instead of 32.)
  std::ostringstream tail;
  tail << "\t" << a.body << ";\n" << L << "after:\n";

  const std::string fail = fail_path(a, L);
  CheckCode out;
  if (a.nested) {
    // Inside a { } block (inline PTX): labels there are not seen from the
    // function's end, so the failure path stays in line, jumped over.
    c << "\t@%cvg_p0 bra " << L << "ok;\n" << fail << L << "ok:\n" << tail.str();
  } else {
    c << "\t@!%cvg_p0 bra " << L << "fail;\n" << tail.str();
    out.fail = fail;
  }
  out.code = c.str();
  return out;
}

std::string window_prologue(const std::vector<SharedVar>& shared, const std::string& depot,
                            long long depot_bytes) {
  std::ostringstream c;
  c << "\t// cudaviz guard: the shared window and the local frame\n";
  bool first = true;
  for (const SharedVar& v : shared) {
    const std::string size = v.bytes < 0 ? "%cvg_r1" : std::to_string(v.bytes);
    if (v.bytes < 0) c << "\tmov.u32 %cvg_r1, %dynamic_smem_size;\n";
    if (first) {
      c << "\tmov.u32 %cvg_w0, " << v.name << ";\n\tadd.s32 %cvg_w2, %cvg_w0, " << size << ";\n";
      first = false;
    } else {
      c << "\tmov.u32 %cvg_r0, " << v.name << ";\n\tmin.u32 %cvg_w0, %cvg_w0, %cvg_r0;\n"
        << "\tadd.s32 %cvg_r0, %cvg_r0, " << size << ";\n\tmax.u32 %cvg_w2, %cvg_w2, %cvg_r0;\n";
    }
  }
  if (first) c << "\tmov.u32 %cvg_w0, 0;\n\tmov.u32 %cvg_w2, 0;\n";
  c << "\tsub.s32 %cvg_w1, %cvg_w2, %cvg_w0;\n";
  // Room for a fence's width class 2^k: the offsets at which 2^k bytes still fit.
  for (unsigned k = 0; k < kWidthClasses; ++k)
    c << "\tsub.s32 %cvg_k" << k << ", %cvg_w1, " << (1u << k) - 1 << ";\n\tmax.s32 %cvg_k" << k << ", %cvg_k" << k
      << ", 0;\n";
  if (!depot.empty())
    c << "\tmov.u64 %cvg_l0, " << depot << ";\n\tadd.s64 %cvg_l1, %cvg_l0, " << depot_bytes << ";\n";
  else
    c << "\tmov.u64 %cvg_l0, 0;\n\tmov.u64 %cvg_l1, 0;\n";
  return c.str();
}

std::string without_unused_rooms(const std::string& prologue, const std::string& code) {
  std::string out;
  std::istringstream in(prologue);
  for (std::string line; std::getline(in, line);) {
    const size_t at = line.find("%cvg_k");
    if (at != std::string::npos && at + 7 <= line.size()) {
      const std::string reg = line.substr(at, 7);  // "%cvg_k" and one digit: kWidthClasses <= 10
      if (code.find(reg) == std::string::npos) continue;
    }
    out += line + "\n";
  }
  return out;
}

std::string scratch_registers() {
  return "\n\t.reg .pred %cvg_p<3>;\n\t.reg .b32 %cvg_r<3>;\n\t.reg .b64 %cvg_d<7>;\n"
         "\t.reg .b32 %cvg_w<3>;\n\t.reg .b32 %cvg_k<" + std::to_string(kWidthClasses) + ">;\n\t.reg .b64 %cvg_l<2>;\n";
}

std::string module_declarations() {
  return "\n\n// cudaviz guard (docs/guard.md): the launch's buffers and the first failed access\n"
         ".const .align 16 .b8 " + std::string(kTableName) + "[" + std::to_string(sizeof(Table)) + "];\n"
         ".global .align 16 .b8 " + std::string(kRecordName) + "[" + std::to_string(sizeof(Record)) + "];\n"
         ".global .align 32 .b8 " + std::string(kSinkName) + "[32];";
}

}  // namespace cv::usercode::guard
