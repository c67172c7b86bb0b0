// The fences (docs/guard.md "Fences"), without a GPU: small kernels of the
// address shapes NVVM emits (an index scaled into a kernel argument's
// buffer, struct fields at constant offsets, negative offsets, byte
// offsets, vectors, atomics, predicated stores; shared arrays static and
// dynamic; a local frame), guarded, then run from their first instruction
// by the PTX evaluator (ptx_eval.h) over many indexes, buffer sizes and
// pointer alignments, beside the raw kernel. Whatever the fence decides,
// every access the guarded kernel makes lies inside a buffer (or the
// window) and is aligned; an access that would not be is stopped and
// reaches the failure path; one that would be runs at its own address.
// A rule planted wrong (a limit one byte too far, a class one width too
// wide) must make the same harness fail.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>

#include "app/ptx_eval.h"
#include "usercode/compile/jitlink.h"
#include "usercode/guard/ptx_guard.h"
#include "usercode/runner/guard_runtime.h"

namespace cv::usercode::guard {
namespace {

// `decls`: shared variables go to module scope (as NVVM places them), the rest into the body.
std::string kernel(const std::string& decls, const std::string& body) {
  std::string module_decls, body_decls;
  for (size_t at = 0; at < decls.size();) {
    const size_t nl = decls.find('\n', at);
    const std::string line = decls.substr(at, nl - at + 1);
    (line.find(".shared") != std::string::npos ? module_decls : body_decls) += line;
    at = nl + 1;
  }
  return ".version 8.5\n.target sm_75\n.address_size 64\n\n" + module_decls + "\n.visible .entry k(\n\t.param .u64 k_param_0,\n"
         "\t.param .u64 k_param_1\n)\n{\n\t.reg .pred %p<4>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<16>;\n" +
         body_decls + "\tld.param.u64 %rd1, [k_param_0];\n\tcvta.to.global.u64 %rd2, %rd1;\n"
         "\tld.param.u64 %rd3, [k_param_1];\n" + body + "\tret;\n}\n";
}

struct Shape {
  const char* name;
  std::string decls, body;
  enum Space { Global, Shared, Local } space = Global;
};

std::vector<Shape> shapes() {
  const std::string sh = "\t.shared .align 4 .b8 sa[48];\n";
  const std::string dyn = "\t.shared .align 4 .b8 sa[48];\n\t.extern .shared .align 16 .b8 dyn[];\n";
  const std::string lo = "\t.local .align 8 .b8 __local_depot0[40];\n\t.reg .b64 %SPL;\n";  // in the body
  return {
      {"an int through the argument's pointer", "", "\tshl.b64 %rd4, %rd3, 2;\n\tadd.s64 %rd5, %rd2, %rd4;\n"
       "\tld.global.u32 %r1, [%rd5];\n\tst.global.u32 [%rd5], %r1;\n"},
      {"a float4", "", "\tshl.b64 %rd4, %rd3, 4;\n\tadd.s64 %rd5, %rd2, %rd4;\n"
       "\tld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd5];\n\tst.global.v4.u32 [%rd5], {%r4, %r3, %r2, %r1};\n"},
      {"a struct's field at +12 (a width class of 16)", "", "\tmul.lo.s64 %rd4, %rd3, 16;\n\tadd.s64 %rd5, %rd2, %rd4;\n"
       "\tld.global.u32 %r1, [%rd5+12];\n\tst.global.u32 [%rd5+8], %r1;\n"},
      {"a negative offset", "", "\tshl.b64 %rd4, %rd3, 2;\n\tadd.s64 %rd5, %rd2, %rd4;\n\tst.global.u32 [%rd5+-4], %r1;\n"},
      {"an offset past every width class", "", "\tshl.b64 %rd4, %rd3, 3;\n\tadd.s64 %rd5, %rd2, %rd4;\n"
       "\tld.global.u64 %rd6, [%rd5+40];\n"},
      {"a byte offset (alignment checked at run time)", "", "\tand.b64 %rd4, %rd3, 1023;\n\tadd.s64 %rd5, %rd2, %rd4;\n"
       "\tld.global.u32 %r1, [%rd5];\n"},
      {"an atomic", "", "\tshl.b64 %rd4, %rd3, 2;\n\tadd.s64 %rd5, %rd2, %rd4;\n\tatom.global.add.u32 %r1, [%rd5], 1;\n"},
      {"an atomic reading its destination", "", "\tshl.b64 %rd4, %rd3, 2;\n\tadd.s64 %rd5, %rd2, %rd4;\n"
       "\tmov.u32 %r1, 3;\n\tatom.global.add.u32 %r1, [%rd5], %r1;\n"},
      {"a predicated store", "", "\tshl.b64 %rd4, %rd3, 2;\n\tadd.s64 %rd5, %rd2, %rd4;\n"
       "\tsetp.ne.u64 %p1, %rd3, 5;\n\t@%p1 st.global.u32 [%rd5], %r1;\n"},
      {"a load into its own address register", "", "\tshl.b64 %rd4, %rd3, 3;\n\tadd.s64 %rd5, %rd2, %rd4;\n"
       "\tld.global.u64 %rd5, [%rd5];\n"},
      {"shared, 32-bit, at +4", sh, "\tcvt.u32.u64 %r2, %rd3;\n\tmov.u32 %r1, sa;\n\tshl.b32 %r3, %r2, 2;\n"
       "\tadd.s32 %r4, %r1, %r3;\n\tld.shared.u32 %r5, [%r4+4];\n\tst.shared.u32 [%r4], %r5;\n", Shape::Shared},
      {"shared, a dynamic array beside a static one, u64", dyn, "\tcvt.u32.u64 %r2, %rd3;\n\tmov.u32 %r1, dyn;\n"
       "\tshl.b32 %r3, %r2, 3;\n\tadd.s32 %r4, %r1, %r3;\n\tld.shared.u64 %rd6, [%r4];\n\tst.shared.u64 [%r4+8], %rd6;\n",
       Shape::Shared},
      {"shared, a 64-bit address, a byte offset", sh, "\tmov.u64 %rd4, sa;\n\tadd.s64 %rd5, %rd4, %rd3;\n"
       "\tld.shared.u16 %rs1, [%rd5];\n", Shape::Shared},
      {"local", lo, "\tmov.u64 %SPL, __local_depot0;\n\tshl.b64 %rd4, %rd3, 2;\n\tadd.s64 %rd5, %SPL, %rd4;\n"
       "\tst.local.u32 [%rd5], %r1;\n\tld.local.v2.u32 {%r2, %r3}, [%rd5+8];\n", Shape::Local},
      // Groups (one check for both accesses) of a byte offset: their alignment checked at run time.
      {"two ints at +0 and +4 from a byte offset (a group)", "",
       "\tand.b64 %rd4, %rd3, 1023;\n\tadd.s64 %rd5, %rd2, %rd4;\n\tld.global.u32 %r1, [%rd5];\n"
       "\tld.global.u32 %r2, [%rd5+4];\n"},
      {"shared, a 64-bit address from a byte offset, two shorts (a group)", sh, "\tmov.u64 %rd4, sa;\n"
       "\tadd.s64 %rd5, %rd4, %rd3;\n\tld.shared.u16 %rs1, [%rd5];\n\tst.shared.u16 [%rd5+2], %rs1;\n", Shape::Shared},
  };
}

// The table as the evaluator reads it: 64-bit words.
std::vector<uint64_t> words(const Table& t) {
  std::vector<uint64_t> w(sizeof t / 8);
  std::memcpy(w.data(), &t, sizeof t);
  return w;
}

struct Outcome {
  size_t runs = 0, violations = 0, stopped = 0, ran = 0;
  std::string first;
};

// Runs `guarded` beside `raw` over many states; counts accesses outside.
// long: one state's set-up, both runs and the comparison read best in one place.
Outcome harness(const Shape& sh, const std::string& raw_ptx, const std::string& guarded_ptx) {
  const test::PtxProgram guarded(guarded_ptx), raw(raw_ptx);
  Outcome out;
  const uint64_t other = 0x300000000ull, other_end = other + 256;  // a second buffer in the table
  for (uint64_t bytes : {0ull, 4ull, 16ull, 48ull, 64ull, 66ull})
    for (uint64_t misalign : {0ull, 4ull, 6ull})
      for (uint64_t dyn : {0ull, 16ull, 40ull})
        for (uint64_t index : {0ull, 1ull, 2ull, 3ull, 4ull, 5ull, 6ull, 7ull, 8ull, 9ull, 10ull, 11ull, 12ull, 13ull, 15ull, 16ull, 17ull,
                               30ull, 31ull, 32ull, 46ull, 47ull, 48ull, 62ull, 63ull, 64ull, 0x40000000ull, 0ull - 1, 0ull - 4,
                               (other - 0x100000000ull) / 4, (other - 0x100000000ull) / 16}) {
          const uint64_t begin = 0x100000000ull + misalign, end = begin + bytes;
          std::vector<BufferView> bufs = {{reinterpret_cast<void*>(begin), bytes, 4, "data", true, 0},
                                          {reinterpret_cast<void*>(other), 256, 4, "other", true, -1}};
          if (!bytes) bufs[0].data = nullptr;
          uint64_t lo = 0, hi = 0;  // what the space allows
          test::PtxEval g(guarded), r(raw);
          for (test::PtxEval* e : {&g, &r}) {
            e->table = words(make_table(bufs, {}));
            e->params["k_param_0"] = bytes ? begin : 0;
            e->params["k_param_1"] = index;
            // Variables lie at their declared alignment (4 for sa, 8 for the depot).
            e->symbols = {{"sa", 0x400 + (misalign & ~3ull)}, {"dyn", 0x440}, {"__local_depot0", 0x20 + (misalign & ~7ull)},
                          {"cv_guard_record", 0x7f0000200000ull}};
            e->reg["%dynamic_smem_size"] = dyn;
            e->reg["%r1"] = 0, e->reg["%rs1"] = 0;
          }
          if (sh.space == Shape::Shared) {
            const bool has_dyn = sh.decls.find("dyn") != std::string::npos;
            lo = 0x400 + (misalign & ~3ull), hi = has_dyn ? std::max(lo + 48, 0x440 + dyn) : lo + 48;
          } else if (sh.space == Shape::Local) {
            lo = 0x20 + (misalign & ~7ull), hi = lo + 40;
          }
          // [address, address + width) inside [from, to), with no sum that could wrap.
          auto within = [](const test::Touch& t, uint64_t from, uint64_t to) {
            return to - from >= t.width && t.address >= from && t.address <= to - t.width;
          };
          auto inside = [&](const test::Touch& t) {
            if (t.address % t.width) return false;
            if (sh.space != Shape::Global) return within(t, lo, hi);
            return (bytes && within(t, begin, end)) || within(t, other, other_end);
          };
          const std::string raw_end = r.run("", {}, 1000);
          const std::string where = g.run("", {"_fail"}, 5000);
          ++out.runs;
          bool raw_ok = true;
          for (const test::Touch& t : r.touched) raw_ok = raw_ok && inside(t);
          bool guarded_ok = true;
          for (const test::Touch& t : g.touched) guarded_ok = guarded_ok && (t.address == 0x7f0000200000ull || inside(t));
          const bool stopped = where.find("_fail") != std::string::npos;
          out.stopped += stopped, out.ran += !stopped;
          // Outside or misaligned: never made. Inside: made, at its own address, not stopped.
          bool wrong = !guarded_ok || (raw_ok && stopped) || (!raw_ok && !stopped);
          if (raw_ok && !stopped) {
            for (const test::Touch& t : r.touched) {
              bool found = false;
              for (const test::Touch& u : g.touched) found = found || (u.address == t.address && u.width == t.width);
              wrong = wrong || !found;
            }
          }
          if (wrong && !out.violations++)
            out.first = std::string(sh.name) + ": index " + std::to_string(index) + " bytes " + std::to_string(bytes) +
                        " misalign " + std::to_string(misalign) + " dyn " + std::to_string(dyn) + " raw " +
                        (raw_ok ? "inside" : "outside") + ", guarded " + (stopped ? "stopped" : "ran") +
                        (guarded_ok ? "" : " and touched outside") + " (" + raw_end + ")";
        }
  return out;
}

TEST(GuardFences, EveryAccessStaysInsideAndEveryGoodOneRuns) {
  for (const Shape& sh : shapes()) {
    SCOPED_TRACE(sh.name);
    const std::string ptx = kernel(sh.decls + (sh.body.find("%rs1") != std::string::npos ? "\t.reg .b16 %rs<2>;\n" : ""),
                                   sh.body);
    const GuardedPtx g = guard_ptx(ptx);
    ASSERT_TRUE(g.ok) << g.error;
    if (jitlink_status().empty()) {
      const LinkResult l = link_ptx(g.ptx, "sm_75");
      ASSERT_TRUE(l.ok) << l.error << g.ptx;
    }
    const Outcome o = harness(sh, ptx, g.ptx);
    EXPECT_EQ(o.violations, 0u) << o.first << "\n" << g.ptx;
    EXPECT_GT(o.stopped, 0u);
    EXPECT_GT(o.ran, 0u);
  }
}

// The forms are what the fences promise: one or two compares and a
// predicated access, no table scan, and no alignment code where the
// address analysis proves it.
TEST(GuardFences, TheCommonFormsAreShort) {
  const auto one = [](const std::string& body, const std::string& decls = "") {
    const GuardedPtx g = guard_ptx(kernel(decls, body));
    EXPECT_TRUE(g.ok) << g.error;
    const size_t at = g.ptx.find("// cudaviz guard: site 0");
    const size_t after = g.ptx.find("$cvg_0_after:", at);
    return g.ptx.substr(at, after - at);
  };
  const std::string glob = one("\tshl.b64 %rd4, %rd3, 4;\n\tadd.s64 %rd5, %rd2, %rd4;\n\tld.global.u32 %r1, [%rd5+8];\n");
  EXPECT_NE(glob.find("sub.s64 %cvg_d1, %rd5, %cvg_d2;\n\tsetp.lt.u64 %cvg_p0, %cvg_d1, %cvg_d3;"), std::string::npos) << glob;
  EXPECT_NE(glob.find("@%cvg_p0 ld.global.u32 %r1, [%rd5+8];"), std::string::npos) << glob;
  EXPECT_EQ(glob.find("and.b64"), std::string::npos) << "alignment proven: " << glob;
  EXPECT_EQ(glob.find("cv_guard_table+16]"), std::string::npos) << "no scan in line: " << glob;
  const std::string bytes = one("\tand.b64 %rd4, %rd3, 1023;\n\tadd.s64 %rd5, %rd2, %rd4;\n\tld.global.u32 %r1, [%rd5];\n");
  EXPECT_NE(bytes.find("and.b64 %cvg_d6, %cvg_d0, 3;"), std::string::npos) << "a byte offset: " << bytes;
  const std::string shared = one("\tcvt.u32.u64 %r2, %rd3;\n\tmov.u32 %r1, sa;\n\tshl.b32 %r3, %r2, 2;\n"
                                 "\tadd.s32 %r4, %r1, %r3;\n\tld.shared.u32 %r5, [%r4];\n",
                                 "\t.shared .align 4 .b8 sa[48];\n");
  EXPECT_NE(shared.find("sub.s32 %cvg_r2, %r4, %cvg_w0;\n\tsetp.lt.u32 %cvg_p0, %cvg_r2, %cvg_k2;"), std::string::npos)
      << shared;
  EXPECT_EQ(shared.find("and.b"), std::string::npos) << shared;
}

// A group (docs/guard.md "Grouped checks") whose range fits one width class
// is fenced like one access of that class: a subtraction and one compare,
// no 64-bit compare of both ends, no scan; the alignment only where the
// address analysis cannot prove it.
TEST(GuardFences, AGroupInOneWidthClassIsFenced) {
  const auto group = [](const std::string& body, const std::string& decls = "") {
    const GuardedPtx g = guard_ptx(kernel(decls, body));
    EXPECT_TRUE(g.ok) << g.error;
    EXPECT_EQ(g.grouped_instructions, 2u) << g.ptx;
    const size_t at = g.ptx.find("// cudaviz guard: group 0");
    return g.ptx.substr(at, g.ptx.find("copy of site 0", at) - at);
  };
  // offsets[r], offsets[r + 1]: [%rd5, %rd5 + 8), the class of 8 bytes (room[3]: 272 + 16 + 8 * 3).
  const std::string pair = group("\tshl.b64 %rd4, %rd3, 2;\n\tadd.s64 %rd5, %rd2, %rd4;\n\tld.global.u32 %r1, [%rd5];\n"
                                 "\tld.global.u32 %r2, [%rd5+4];\n");
  EXPECT_NE(pair.find("[cv_guard_table+312];\n\tsub.s64 %cvg_d1, %rd5, %cvg_d2;\n\tsetp.lt.u64 %cvg_p0, %cvg_d1, %cvg_d3;"),
            std::string::npos) << pair;
  EXPECT_EQ(pair.find("setp.ge.s64"), std::string::npos) << "no compare of both ends: " << pair;
  EXPECT_EQ(pair.find("and.b64"), std::string::npos) << "alignment proven: " << pair;
  const std::string bytes = group("\tand.b64 %rd4, %rd3, 1023;\n\tadd.s64 %rd5, %rd2, %rd4;\n\tld.global.u32 %r1, [%rd5];\n"
                                  "\tld.global.u32 %r2, [%rd5+4];\n");
  EXPECT_NE(bytes.find("and.b64 %cvg_d6, %cvg_d0, 3;"), std::string::npos) << "a byte offset: " << bytes;
  // A block tree's s[t] read and written: the shared window's room for 4 bytes.
  const std::string tree = group("\tcvt.u32.u64 %r2, %rd3;\n\tmov.u32 %r1, sa;\n\tshl.b32 %r3, %r2, 2;\n"
                                 "\tadd.s32 %r4, %r1, %r3;\n\tld.shared.u32 %r5, [%r4];\n\tadd.s32 %r5, %r5, 1;\n"
                                 "\tst.shared.u32 [%r4], %r5;\n", "\t.shared .align 4 .b8 sa[48];\n");
  EXPECT_NE(tree.find("sub.s32 %cvg_r2, %r4, %cvg_w0;\n\tsetp.lt.u32 %cvg_p0, %cvg_r2, %cvg_k2;"), std::string::npos) << tree;
  EXPECT_EQ(tree.find("and.b"), std::string::npos) << tree;
}

// The harness can fail: each fence with a rule planted wrong lets some
// access out, and the harness says so.
TEST(GuardFences, APlantedUnsoundRuleIsCaught) {
  struct Plant {
    size_t shape;
    std::string from, to;
  } plants[] = {
      {0, "[cv_guard_table+304]", "[cv_guard_table+296]"},  // the room of a class one width too narrow
      // (one byte more room would be harmless here: the addresses are multiples of 4)
      {10, "%cvg_r2, %cvg_k3;", "%cvg_r2, %cvg_k2;"},                                    // the room of 4 bytes for 8
      {13, "setp.lt.u64 %cvg_p0, %cvg_d1, 37;", "setp.lt.u64 %cvg_p0, %cvg_d1, 41;"},  // local room one element too far
      {5, "setp.eq.and.u64 %cvg_p0, %cvg_d6, 0, %cvg_p0;", "setp.eq.or.u64 %cvg_p0, %cvg_d6, 0, %cvg_p0;"},
      // a group's alignment dropped, and its class one width too narrow
      {14, "setp.eq.and.u64 %cvg_p0, %cvg_d6, 0, %cvg_p0;\n\t@!%cvg_p0 bra $cvg_g0_slow;",
       "setp.eq.or.u64 %cvg_p0, %cvg_d6, 0, %cvg_p0;\n\t@!%cvg_p0 bra $cvg_g0_slow;"},
      {15, "%cvg_d3, %cvg_k2;", "%cvg_d3, %cvg_w1;"},  // the room of one byte
  };
  const std::vector<Shape> all = shapes();
  for (const Plant& p : plants) {
    const Shape& sh = all.at(p.shape);
    SCOPED_TRACE(sh.name);
    const std::string ptx = kernel(sh.decls, sh.body);
    const GuardedPtx g = guard_ptx(ptx);
    ASSERT_TRUE(g.ok) << g.error;
    std::string bad = g.ptx;
    const size_t at = bad.find(p.from);
    ASSERT_NE(at, std::string::npos) << p.from << "\n" << g.ptx;
    bad.replace(at, p.from.size(), p.to);
    EXPECT_GT(harness(sh, ptx, bad).violations, 0u) << "planted: " << p.to;
  }
}

}  // namespace
}  // namespace cv::usercode::guard
