#include "usercode/guard/check_code.h"

#include <cstddef>
#include <sstream>

#include "usercode/guard/guard_abi.h"

namespace cv::usercode::guard {
namespace {

constexpr unsigned kUnrolled = 4;  // table entries compared without the loop

// %cvg_p0 = [reg, reg + width) lies inside the space's window (shared, local)
// or inside one entry of the table (global). A table match jumps to L"checked".
// The start is compared signed: every window lies below 2^63, so an address
// at the top of the 64-bit space fails there instead of wrapping `reg +
// width` around to a small end that would pass.
void range_check(std::ostream& c, const std::string& space, const std::string& L, const char* reg,
                 const std::string& width, int root = -1) {
  if (space != "global") {
    const bool sh = space == "shared";
    c << "\tadd.s64 %cvg_d1, " << reg << ", " << width << ";\n\tsetp.ge.s64 %cvg_p0, " << reg << ", "
      << (sh ? "%cvg_s0" : "%cvg_s2") << ";\n\tsetp.le.and.u64 %cvg_p0, %cvg_d1, "
      << (sh ? "%cvg_s1" : "%cvg_s3") << ", %cvg_p0;\n";
    return;
  }
  // The first kUnrolled entries at fixed offsets (ptxas reads them as constant
  // operands; unused entries are {0, 0} and match nothing), then a loop over the rest.
  c << "\tadd.s64 %cvg_d1, " << reg << ", " << width << ";\n";
  if (root >= 0 && root < static_cast<int>(kParamWindows))
    c << "\tld.const.v2.u64 {%cvg_d2, %cvg_d3}, [" << kTableName << "+" << offsetof(Table, param) + 16 * root << "];\n"
      << "\tsetp.ge.s64 %cvg_p0, " << reg << ", %cvg_d2;\n\tsetp.le.and.u64 %cvg_p0, %cvg_d1, %cvg_d3, %cvg_p0;\n"
      << "\t@%cvg_p0 bra " << L << "checked;\n";
  for (unsigned e = 0; e < kUnrolled; ++e)
    c << "\tld.const.v2.u64 {%cvg_d2, %cvg_d3}, [" << kTableName << "+" << 16 + 16 * e << "];\n"
      << "\tsetp.ge.s64 %cvg_p0, " << reg << ", %cvg_d2;\n\tsetp.le.and.u64 %cvg_p0, %cvg_d1, %cvg_d3, %cvg_p0;\n"
      << "\t@%cvg_p0 bra " << L << "checked;\n";
  c << "\tld.const.u32 %cvg_r0, [" << kTableName << "];\n\tadd.s32 %cvg_r0, %cvg_r0, -" << kUnrolled
    << ";\n\tmov.u64 %cvg_d4, " << kTableName << ";\n\tadd.s64 %cvg_d4, %cvg_d4, " << 16 * kUnrolled << ";\n"
    << L << "loop:\n\tsetp.gt.s32 %cvg_p0, %cvg_r0, 0;\n\t@!%cvg_p0 bra " << L << "checked;\n"
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
    f << "\tst.global.u64 [" << rec << "+24], %cvg_s0;\n\tst.global.u64 [" << rec << "+32], %cvg_s1;\n"
      << "\tst.global.u64 [" << rec << "+40], %cvg_s2;\n\tst.global.u64 [" << rec << "+48], %cvg_s3;\n";
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

// The instruction with its address operand replaced.
std::string with_address(const Access& a, const std::string& address) {
  std::string body = a.body;
  body.replace(body.find(a.address), a.address.size(), address);
  return "\t" + body + ";\n";
}

// An access through a parameter's pointer (Access::root): that buffer's
// window compared (no table scan), then the instruction issued before any
// branch, at the address when it passed and at the sink when not, so that
// nothing waits for the branch; the branch then goes out of line to check
// the address against every buffer (a pointer into another buffer is fine)
// and either runs the instruction there or records the failure.
CheckCode issued_check(const Access& a, const std::string& L, std::ostringstream& c) {
  const std::string W = std::to_string(a.width);
  c << "\tadd.s64 %cvg_d1, %cvg_d0, " << W << ";\n\tld.const.v2.u64 {%cvg_d2, %cvg_d3}, [" << kTableName << "+"
    << offsetof(Table, param) + 16 * a.root << "];\n"
    << "\tsetp.ge.s64 %cvg_p0, %cvg_d0, %cvg_d2;\n\tsetp.le.and.u64 %cvg_p0, %cvg_d1, %cvg_d3, %cvg_p0;\n";
  if (a.width > 1) c << "\tsetp.eq.and.u64 %cvg_p0, %cvg_d6, 0, %cvg_p0;\n";
  c << "\tmov.u64 %cvg_d4, " << kSinkName << ";\n\tselp.b64 %cvg_d5, %cvg_d0, %cvg_d4, %cvg_p0;\n"
    << with_address(a, "[%cvg_d5]") << "\t@!%cvg_p0 bra " << L << "scan;\n" << L << "after:\n";
  std::ostringstream f;
  f << L << "scan:\n";
  range_check(f, "global", L, "%cvg_d0", W);
  f << L << "checked:\n";
  if (a.width > 1) f << "\tsetp.eq.and.u64 %cvg_p0, %cvg_d6, 0, %cvg_p0;\n";
  f << "\t@!%cvg_p0 bra " << L << "fail;\n" << with_address(a, "[%cvg_d0]") << "\tbra " << L << "after;\n"
    << fail_path(a, L);
  return {c.str(), f.str()};
}

}  // namespace

std::string window_check(const std::string& space, const std::string& prefix, const std::string& reg,
                         const std::string& width, int root) {
  std::ostringstream c;
  range_check(c, space, prefix, reg.c_str(), width, root);
  if (space == "global") c << prefix << "checked:\n";
  return c.str();
}

std::string group_check(const AccessGroup& g, unsigned id, const std::string& slow, int root) {
  const std::string L = "$cvg_g" + std::to_string(id) + "_";
  std::ostringstream c;
  c << "\t// cudaviz guard: group " << id << ": " << g.members.size() << " accesses through " << g.base
    << " checked at once ([" << g.base << (g.lo < 0 ? "" : "+") << g.lo << ", " << g.base
    << (g.hi < 0 ? "" : "+") << g.hi << "), " << g.space << ", aligned to " << g.align << ")\n";
  if (g.base32) c << "\tcvt.u64.u32 %cvg_d0, " << g.base << ";\n";
  else c << "\tmov.b64 %cvg_d0, " << g.base << ";\n";
  c << "\tand.b64 %cvg_d6, %cvg_d0, " << g.align - 1 << ";\n";
  if (g.lo) c << "\tadd.s64 %cvg_d0, %cvg_d0, " << g.lo << ";\n";
  range_check(c, g.space, L, "%cvg_d0", std::to_string(g.hi - g.lo), root);
  c << L << "checked:\n\tsetp.eq.and.u64 %cvg_p0, %cvg_d6, 0, %cvg_p0;\n\t@!%cvg_p0 bra " << slow << ";\n";
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
  if (a.width > 1) c << "\tand.b64 %cvg_d6, %cvg_d0, " << a.width - 1 << ";\n";  // tested at `checked`
  if (a.space == "global" && a.root >= 0 && a.root < static_cast<int>(kParamWindows) && a.guard.empty() &&
      !a.nested && !a.address.empty() && a.body.find(a.address) != std::string::npos)
    return issued_check(a, L, c);
  const std::string W = std::to_string(a.width);
  if (a.space == "global" || a.space == "shared" || a.space == "local") {
    range_check(c, a.space, L, "%cvg_d0", W);
  } else {
    c << "\tisspacep.shared %cvg_p2, %cvg_d0;\n\t@%cvg_p2 bra " << L << "sh;\n"
      << "\tisspacep.local %cvg_p2, %cvg_d0;\n\t@%cvg_p2 bra " << L << "lo;\n";
    range_check(c, "global", L, "%cvg_d0", W);
    c << "\tbra " << L << "checked;\n" << L << "sh:\n\tcvta.to.shared.u64 %cvg_d5, %cvg_d0;\n";
    range_check(c, "shared", L, "%cvg_d5", W);
    c << "\tbra " << L << "checked;\n" << L << "lo:\n\tcvta.to.local.u64 %cvg_d5, %cvg_d0;\n";
    range_check(c, "local", L, "%cvg_d5", W);
  }
  c << L << "checked:\n";
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
    if (v.bytes < 0) c << "\tmov.u32 %cvg_r1, %dynamic_smem_size;\n\tcvt.u64.u32 %cvg_d4, %cvg_r1;\n";
    const std::string size = v.bytes < 0 ? "%cvg_d4" : std::to_string(v.bytes);
    if (first) {
      c << "\tmov.u64 %cvg_s0, " << v.name << ";\n\tadd.s64 %cvg_s1, %cvg_s0, " << size << ";\n";
      first = false;
    } else {
      c << "\tmov.u64 %cvg_d5, " << v.name << ";\n\tmin.u64 %cvg_s0, %cvg_s0, %cvg_d5;\n"
        << "\tadd.s64 %cvg_d5, %cvg_d5, " << size << ";\n\tmax.u64 %cvg_s1, %cvg_s1, %cvg_d5;\n";
    }
  }
  if (first) c << "\tmov.u64 %cvg_s0, 0;\n\tmov.u64 %cvg_s1, 0;\n";
  if (!depot.empty())
    c << "\tmov.u64 %cvg_s2, " << depot << ";\n\tadd.s64 %cvg_s3, %cvg_s2, " << depot_bytes << ";\n";
  else
    c << "\tmov.u64 %cvg_s2, 0;\n\tmov.u64 %cvg_s3, 0;\n";
  return c.str();
}

std::string scratch_registers() {
  return "\n\t.reg .pred %cvg_p<3>;\n\t.reg .b32 %cvg_r<2>;\n\t.reg .b64 %cvg_d<7>;\n"
         "\t.reg .b64 %cvg_s<4>;\n";
}

std::string module_declarations() {
  return "\n\n// cudaviz guard (docs/guard.md): the launch's buffers and the first failed access\n"
         ".const .align 16 .b8 " + std::string(kTableName) + "[" + std::to_string(sizeof(Table)) + "];\n"
         ".global .align 16 .b8 " + std::string(kRecordName) + "[" + std::to_string(sizeof(Record)) + "];\n"
         ".global .align 32 .b8 " + std::string(kSinkName) + "[32];";
}

}  // namespace cv::usercode::guard
