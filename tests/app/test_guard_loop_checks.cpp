// The loop checks' arithmetic (usercode/guard/loop_proof.cpp), without a
// GPU: hand-written PTX loops of the shapes NVVM emits, guarded; for many
// starting states (starts, bounds, strides near 0, the buffer's ends and
// the 32-bit limits; aligned and misaligned buffers, empty ones) the guard's
// check before the loop is run by a small evaluator (ptx_eval.h) beside the
// raw loop itself. Whenever the check lets the proven copy run, every access
// the loop makes must lie inside the buffer (or window) and be aligned; and
// for the plain in-range cases it must let it run.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <stdexcept>

#include "app/ptx_eval.h"
#include "usercode/compile/jitlink.h"
#include "usercode/guard/ptx_guard.h"
#include "usercode/runner/guard_runtime.h"

namespace cv::usercode::guard {
namespace {

struct Shape {
  const char* name;
  std::string body;  // the loop body, ending with the setp of %p1 (the branch back follows)
  // The state at the loop's start from (a, b, buffer base): registers set.
  std::function<void(std::map<std::string, uint64_t>&, uint64_t, uint64_t, uint64_t)> state;
  bool shared = false;
  unsigned elem = 4;     // bytes an element (the buffer is sized in them)
  bool counted = true;   // its trip count follows from its branch back (else it may not end)
};

std::string kernel(const std::string& body) {
  return ".version 8.5\n.target sm_75\n.address_size 64\n\n.visible .entry k(\n\t.param .u64 k_param_0\n)\n{\n"
         "\t.reg .pred %p<4>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<16>;\n"
         "\tld.param.u64 %rd1, [k_param_0];\n\tcvta.to.global.u64 %rd2, %rd1;\n"
         "$L__BB0_1:\n" + body + "\t@%p1 bra $L__BB0_1;\n\tret;\n}\n";
}

uint64_t lo32(uint64_t v) { return v & 0xffffffffull; }

std::vector<Shape> shapes() {
  auto ab32 = [](auto& r, uint64_t a, uint64_t b, uint64_t base) { r["%r1"] = lo32(a), r["%r2"] = lo32(b), r["%rd2"] = base; };
  auto ab64 = [](auto& r, uint64_t a, uint64_t b, uint64_t base) { r["%rd3"] = a, r["%rd4"] = b, r["%rd2"] = base; };
  return {
      {"unsigned, tested after its step (a search)",
       "\tmul.wide.u32 %rd5, %r1, 4;\n\tadd.s64 %rd6, %rd2, %rd5;\n\tld.global.u32 %r3, [%rd6];\n"
       "\tadd.s32 %r1, %r1, 1;\n\tsetp.lt.u32 %p1, %r1, %r2;\n", ab32},
      {"signed, tested before its step",
       "\tmul.wide.s32 %rd5, %r1, 4;\n\tadd.s64 %rd6, %rd2, %rd5;\n\tst.global.u32 [%rd6], %r1;\n"
       "\tsetp.lt.s32 %p1, %r1, %r2;\n\tadd.s32 %r1, %r1, 1;\n", ab32},
      {"signed, counting down",
       "\tadd.s32 %r1, %r1, -1;\n\tmul.wide.s32 %rd5, %r1, 4;\n\tadd.s64 %rd6, %rd2, %rd5;\n"
       "\tld.global.u32 %r3, [%rd6];\n\tsetp.gt.s32 %p1, %r1, %r2;\n", ab32},
      {"unsigned, counting down to a bound (ge)",
       "\tadd.s32 %r1, %r1, -1;\n\tmul.wide.u32 %rd5, %r1, 4;\n\tadd.s64 %rd6, %rd2, %rd5;\n"
       "\tld.global.u32 %r3, [%rd6];\n\tsetp.ge.u32 %p1, %r1, %r2;\n", ab32},
      {"unsigned, le",
       "\tmul.wide.u32 %rd5, %r1, 4;\n\tadd.s64 %rd6, %rd2, %rd5;\n\tld.global.u32 %r3, [%rd6];\n"
       "\tadd.s32 %r1, %r1, 1;\n\tsetp.le.u32 %p1, %r1, %r2;\n", ab32},
      {"unrolled by 4: a 64-bit counter and a pointer stepping together",
       "\tld.global.u32 %r3, [%rd7];\n\tld.global.u32 %r4, [%rd7+4];\n\tld.global.u32 %r5, [%rd7+8];\n"
       "\tld.global.u32 %r6, [%rd7+12];\n\tadd.s64 %rd7, %rd7, 16;\n\tadd.s64 %rd3, %rd3, 4;\n"
       "\tsetp.lt.s64 %p1, %rd3, %rd4;\n",
       [](auto& r, uint64_t a, uint64_t b, uint64_t base) { r["%rd3"] = a, r["%rd4"] = b, r["%rd2"] = base, r["%rd7"] = base + 4 * a; }},
      {"unrolled by 4: a counter up to 0 (ne)",
       "\tld.global.v2.u32 {%r3, %r4}, [%rd7];\n\tld.global.v2.u32 {%r5, %r6}, [%rd7+8];\n"
       "\tadd.s64 %rd7, %rd7, 16;\n\tadd.s32 %r1, %r1, 4;\n\tsetp.ne.s32 %p1, %r1, 0;\n",
       [](auto& r, uint64_t a, uint64_t b, uint64_t base) { r["%r1"] = lo32(0 - 4 * (a & 0xff)) + (b & 3), r["%rd2"] = base, r["%rd7"] = base + 4 * b; }},
      {"grid-stride: a register step",
       "\tshl.b64 %rd5, %rd3, 2;\n\tadd.s64 %rd6, %rd2, %rd5;\n\tld.global.u32 %r3, [%rd6];\n"
       "\tadd.s64 %rd3, %rd3, %rd8;\n\tsetp.lt.u64 %p1, %rd3, %rd4;\n",
       [](auto& r, uint64_t a, uint64_t b, uint64_t base) { r["%rd3"] = a, r["%rd4"] = b, r["%rd2"] = base, r["%rd8"] = (a ^ b) % 5; }},
      {"a 32-bit index plus an invariant, 8-byte elements",
       "\tadd.s32 %r8, %r1, %r9;\n\tmul.wide.u32 %rd5, %r8, 8;\n\tadd.s64 %rd6, %rd2, %rd5;\n"
       "\tld.global.u64 %rd9, [%rd6];\n\tadd.s32 %r1, %r1, 1;\n\tsetp.lt.u32 %p1, %r1, %r2;\n",
       [](auto& r, uint64_t a, uint64_t b, uint64_t base) { r["%r1"] = lo32(a), r["%r2"] = lo32(b), r["%r9"] = lo32(b * 3), r["%rd2"] = base; },
       false, 8},
      {"shared, 32-bit addresses",
       "\tshl.b32 %r5, %r1, 2;\n\tadd.s32 %r6, %r7, %r5;\n\tld.shared.u32 %r3, [%r6];\n"
       "\tadd.s32 %r1, %r1, 1;\n\tsetp.lt.u32 %p1, %r1, %r2;\n",
       [](auto& r, uint64_t a, uint64_t b, uint64_t base) { r["%r1"] = lo32(a), r["%r2"] = lo32(b), r["%r7"] = lo32(base); },
       true},
      {"an unknown trip count, an invariant address",
       "\tld.global.u32 %r3, [%rd6+4];\n\tsetp.ne.s32 %p1, %r3, %r2;\n",
       [](auto& r, uint64_t a, uint64_t b, uint64_t base) { r["%rd6"] = base + 4 * a, r["%r2"] = lo32(b); },
       false, 4, false},
      {"the next trip's index widened at the end of the trip (read before it is written)",
       "\tshl.b64 %rd5, %rd9, 2;\n\tadd.s64 %rd6, %rd2, %rd5;\n\tld.global.u32 %r3, [%rd6];\n"
       "\tadd.s32 %r1, %r1, 1;\n\tcvt.u64.u32 %rd9, %r1;\n\tsetp.gt.u64 %p1, %rd4, %rd9;\n",
       [](auto& r, uint64_t a, uint64_t b, uint64_t base) {
         r["%r1"] = lo32(a), r["%rd4"] = b, r["%rd2"] = base;
         // On entry the same index; or not, for the starts near 2^31 and above.
         r["%rd9"] = lo32(a) < 0x7ffffffe || (a + b) % 2 ? lo32(a) : lo32(a) + 1;
       }},
      {"a block tree: halved each trip, a barrier in the loop (no trip count: bounded by the entry value)",
       "\tadd.s32 %r5, %r8, %r1;\n\tshl.b32 %r6, %r5, 2;\n\tadd.s32 %r9, %r7, %r6;\n\tld.shared.u32 %r3, [%r9];\n"
       "\tshl.b32 %r10, %r8, 2;\n\tadd.s32 %r11, %r7, %r10;\n\tst.shared.u32 [%r11], %r3;\n\tbar.sync 0;\n"
       "\tshr.u32 %r1, %r1, 1;\n\tsetp.ne.s32 %p1, %r1, 0;\n",
       [](auto& r, uint64_t a, uint64_t b, uint64_t base) { r["%r1"] = lo32(a), r["%r8"] = lo32(b), r["%r7"] = lo32(base); },
       true},
      {"64-bit, tested before its step",
       "\tshl.b64 %rd5, %rd3, 2;\n\tadd.s64 %rd6, %rd2, %rd5;\n\tld.global.u32 %r3, [%rd6];\n"
       "\tsetp.lt.u64 %p1, %rd3, %rd4;\n\tadd.s64 %rd3, %rd3, 1;\n", ab64},
  };
}

// Shape `index` (whose name holds `words`: the list's order is the tests'), its
// raw PTX and that PTX guarded; throws when either does not hold.
struct GuardedShape {
  Shape sh;
  std::string ptx;
  GuardedPtx g;
};
GuardedShape guarded_shape(size_t index, const std::string& words) {
  GuardedShape s{shapes().at(index), "", {}};
  if (std::string(s.sh.name).find(words) == std::string::npos)
    throw std::runtime_error("shape " + std::to_string(index) + " is \"" + s.sh.name + "\", not " + words);
  s.ptx = kernel(s.sh.body);
  s.g = guard_ptx(s.ptx);
  if (!s.g.ok) throw std::runtime_error("not guarded: " + s.g.error);
  return s;
}

struct Tally {
  size_t passed = 0, inside = 0, unsound = 0;
  std::string first;  // the first state whose check passed while the loop left the buffer
};

// The check of `guarded` beside the raw loop of `ptx`, over many starting states.
Tally run_states(const Shape& sh, const std::string& ptx, const std::string& guarded_ptx) {
  const std::vector<uint64_t> values = {0, 1, 5, 47, 48, 49, 0x7ffffffe, 0x7fffffff, 0x80000000,
                                        0xfffffffd, 0xffffffff, 0ull - 3, 0x100000005ull};
  const test::PtxProgram guarded(guarded_ptx), unguarded(ptx);
  Tally t;
  for (uint64_t elements : {0ull, 1ull, 48ull})
    for (uint64_t misalign : {0ull, 2ull})
      for (uint64_t a : values)
        for (uint64_t b : values) {
          const uint64_t base = (sh.shared ? 0x400 : 0x100000000ull) + misalign;
          const uint64_t end = base + elements * sh.elem;
          test::PtxEval check(guarded), raw(unguarded);
          sh.state(check.reg, a, b, base);
          sh.state(raw.reg, a, b, base);
          // The kernel parameter's own window (Table::param[0]) on half the runs, else the scan.
          std::vector<BufferView> bufs;
          if (elements && !sh.shared)
            bufs.push_back({reinterpret_cast<void*>(base), end - base, sh.elem, "data", true, (a + b) % 2 ? 0 : -1});
          check.table = test::table_words(make_table(bufs, {}));
          check.reg["%cvg_w0"] = sh.shared ? base : 0, check.reg["%cvg_w1"] = sh.shared ? end - base : 0;
          check.reg["%cvg_l0"] = 0, check.reg["%cvg_l1"] = 0;
          const std::string where = check.run("$L__BB0_1", {"_fast", "_slow"}, 100000);
          if (where.find("_fast") == std::string::npos && where.find("_slow") == std::string::npos)
            throw std::runtime_error("the check ended at " + where);
          const bool pass = where.find("_fast") != std::string::npos;
          // 48 elements take at most ~350 steps; longer runs are cut (and are not plain cases).
          const bool ended = raw.run("$L__BB0_1", {}, 700) != "steps";
          bool ok = true;
          for (const test::Touch& x : raw.touched)
            ok = ok && x.address >= base && x.address + x.width <= end && x.address % x.width == 0;
          // A loop that runs once is left to its guarded copy (nothing to gain): the
          // plain cases are the in-range runs that end and go round at least once more.
          const bool again = (ended || !sh.counted) && raw.taken["$L__BB0_1"] > 0;
          t.passed += pass && again, t.inside += ok && again;
          if (pass && !ok && !t.unsound++)
            t.first = "a=" + std::to_string(a) + " b=" + std::to_string(b) + " elements=" + std::to_string(elements) +
                      " misalign=" + std::to_string(misalign) + ": the check passed but the loop leaves the buffer";
        }
  return t;
}

TEST(GuardLoopChecks, TheCheckPassesOnlyWhenEveryAccessStaysInside) {
  for (const Shape& sh : shapes()) {
    SCOPED_TRACE(sh.name);
    const std::string ptx = kernel(sh.body);
    const GuardedPtx g = guard_ptx(ptx);
    ASSERT_TRUE(g.ok) << g.error;
    ASSERT_EQ(g.loops_proven, 1u) << g.ptx;
    if (jitlink_status().empty()) {
      const LinkResult l = link_ptx(g.ptx, "sm_75");
      ASSERT_TRUE(l.ok) << l.error;
    }
    const Tally t = run_states(sh, ptx, g.ptx);
    EXPECT_EQ(t.unsound, 0u) << t.first;
    // The plain cases (an in-range loop that runs more than once) pass.
    EXPECT_GT(t.passed, 0u);
    EXPECT_GE(t.passed * 10, t.inside * 9) << t.passed << " passed of " << t.inside << " in-range runs";
  }
}

// A grid-stride loop that most threads run once (grid = ceil(n / threads)):
// its check leaves for the guarded copy after a handful of instructions,
// before the trip count's division; two trips go there too, many run proven.
TEST(GuardLoopChecks, AGridStrideLoopRunOnceLeavesAtOnce) {
  const GuardedShape s = guarded_shape(7, "grid-stride");
  const GuardedPtx& g = s.g;
  const test::PtxProgram guarded(g.ptx);
  const uint64_t base = 0x100000000ull, elements = 48;
  auto where = [&](uint64_t start, uint64_t step, long long steps) {
    test::PtxEval e(guarded);
    e.reg["%rd3"] = start, e.reg["%rd4"] = elements, e.reg["%rd2"] = base, e.reg["%rd8"] = step;
    e.table = test::table_words(make_table({{reinterpret_cast<void*>(base), elements * 4, 4, "data", true, 0}}, {}));
    return e.run("$L__BB0_1", {"_fast", "_slow"}, steps);
  };
  EXPECT_NE(where(5, 64, 8).find("_slow"), std::string::npos) << "one trip: " << where(5, 64, 8) << "\n" << g.ptx;
  EXPECT_NE(where(5, 30, 100000).find("_slow"), std::string::npos) << "two trips";
  EXPECT_NE(where(5, 2, 100000).find("_fast"), std::string::npos) << "22 trips";
}

// An unsigned 32-bit index stepped past 0xffffffff wraps to 0: the loop then
// reads far below where its first trips read. Its check's range is computed
// from the first index upward, so only the no-wrap test stops it where a
// buffer holds that range and not what lies 16 GiB below (the pointer is far
// below its buffer). Every start near the top, bounds just above 0.
TEST(GuardLoopChecks, AnIndexThatWrapsPastTheTopIsNotProven) {
  const GuardedShape s = guarded_shape(0, "unsigned, tested after its step");
  const Shape& sh = s.sh;
  const test::PtxProgram guarded(s.g.ptx), unguarded(s.ptx);
  const uint64_t base = 0x1000000000ull;
  size_t wrapped = 0, proven = 0;
  for (uint64_t a : {0xfffffff0ull, 0xfffffffdull, 0xfffffffeull, 0xffffffffull})
    for (uint64_t b : {1ull, 2ull, 5ull, 0xfffffff8ull}) {
      // The buffer holds indexes a - 16 .. a + 48 of the pointer: every trip before a wrap.
      const uint64_t lo = base + 4 * (a - 16), hi = base + 4 * (a + 48);
      test::PtxEval check(guarded), raw(unguarded);
      sh.state(check.reg, a, b, base);
      sh.state(raw.reg, a, b, base);
      check.table = test::table_words(make_table({{reinterpret_cast<void*>(lo), hi - lo, 4, "data", true, 0}}, {}));
      check.reg["%cvg_w0"] = 0, check.reg["%cvg_w1"] = 0, check.reg["%cvg_l0"] = 0, check.reg["%cvg_l1"] = 0;
      const bool pass = check.run("$L__BB0_1", {"_fast", "_slow"}, 100000).find("_fast") != std::string::npos;
      raw.run("$L__BB0_1", {}, 700);
      bool inside = true;
      for (const test::Touch& x : raw.touched) inside = inside && x.address >= lo && x.address + x.width <= hi;
      wrapped += !inside;
      proven += pass;
      EXPECT_FALSE(pass && !inside) << "a=" << a << " b=" << b << ": proven, but the loop wrapped and left the buffer";
    }
  EXPECT_GT(wrapped, 0u);  // the states do wrap
  EXPECT_GT(proven, 0u);   // and the ones that do not are proven (0xfffffff0 up to 0xfffffff8)
}

// The harness can fail: a window compare planted wrong (its upper end no
// longer required) in the check of a plain loop and of the block tree
// lets a loop that leaves the buffer through, and the harness says so.
TEST(GuardLoopChecks, APlantedUnsoundRuleIsCaught) {
  const std::vector<Shape> all = shapes();
  for (size_t k : {size_t{0}, all.size() - 2}) {
    const Shape& sh = all[k];
    SCOPED_TRACE(sh.name);
    const std::string ptx = kernel(sh.body);
    const GuardedPtx g = guard_ptx(ptx);
    ASSERT_TRUE(g.ok) << g.error;
    std::string bad = g.ptx;
    const std::string from = "setp.le.and.u64 %cvg_p0, %cvg_d1,", to = "setp.le.or.u64 %cvg_p0, %cvg_d1,";
    size_t planted = 0;
    for (size_t at = bad.find(from); at != std::string::npos; at = bad.find(from, at + 1), ++planted)
      bad.replace(at, from.size(), to);
    ASSERT_GT(planted, 0u) << g.ptx;
    EXPECT_GT(run_states(sh, ptx, bad).unsound, 0u);
  }
}

}  // namespace
}  // namespace cv::usercode::guard

namespace cv::usercode::guard {
namespace {

// One access's own check (check_code.cpp) at the edges: the buffer's last
// element passes; an address whose end wraps past 2^64 (a null pointer
// indexed by -1) fails, as does one byte past the end.
// Through a pointer of unknown origin (checked, then issued), and through
// the kernel parameter's pointer (issued at once: at the sink when its
// buffer's window says no, then, out of line, every buffer tried).
void edges(const std::string& address_code, bool through_parameter) {
  SCOPED_TRACE(through_parameter ? "through the parameter" : "a pointer of unknown origin");
  const std::string ptx =
      ".version 8.5\n.target sm_75\n.address_size 64\n\n.visible .entry k(\n\t.param .u64 k_param_0\n)\n{\n"
      "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<8>;\n\tld.param.u64 %rd1, [k_param_0];\n\tcvta.to.global.u64 %rd2, %rd1;\n"
      "$L__BB0_1:\n" + address_code + "\tst.global.u32 [%rd6], %r1;\n\tret;\n}\n";
  const GuardedPtx g = guard_ptx(ptx);
  ASSERT_TRUE(g.ok) << g.error;
  // Through the parameter: the fence (its buffer's start subtracted, the room compared).
  EXPECT_EQ(g.ptx.find("sub.s64 %cvg_d1, %rd6, %cvg_d2;") != std::string::npos, through_parameter) << g.ptx;
  const test::PtxProgram prog(g.ptx);
  const uint64_t base = 0x100000000ull, end = base + 64;
  struct Case {
    uint64_t address;
    bool passes;
  } cases[] = {{base, true}, {end - 4, true}, {end - 3, false}, {end, false}, {base - 4, false},
               {0xfffffffffffffffcull, false}, {0xfffffffffffffffeull, false}, {0, false}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.address);
    for (bool own_window : {false, true}) {
      test::PtxEval e(prog);
      e.table = test::table_words(make_table({{reinterpret_cast<void*>(base), end - base, 4, "data", true, own_window ? 0 : -1}}, {}));
      e.reg["%rd2"] = base, e.reg["%rd5"] = c.address - base, e.reg["%rd6"] = c.address, e.reg["%r1"] = 7;
      const std::string where = e.run("$L__BB0_1", {"_fail", "_after"}, 1000);
      EXPECT_EQ(where.find("_after") != std::string::npos, c.passes) << where;
      // What was touched: the address when it passed; nothing, or only the sink, when not.
      for (const test::Touch& t : e.touched)
        EXPECT_TRUE(t.address == test::PtxEval::kSink || (c.passes && t.address == c.address)) << t.address;
      size_t at_address = 0;
      for (const test::Touch& t : e.touched) at_address += t.address == c.address;
      EXPECT_EQ(at_address, c.passes ? 1u : 0u);
    }
  }
}

TEST(GuardLoopChecks, OneAccessAtTheEdgesOfTheAddressSpace) {
  edges("", false);
  edges("\tadd.s64 %rd6, %rd2, %rd5;\n", true);
}

// A search nested in an outer loop (corelated's shape) remembers its check's
// answer (loop_cache.h): run whole by the evaluator, three outer trips each
// search [start, start + 16) of a 48-element buffer, the start moved `shift`
// a trip. Unmoved, the second and third entries reuse the first answer; moved
// by 20 the third search would run past the end: its check runs again, fails,
// and the guarded copy stops it before it reads outside.
TEST(GuardLoopChecks, ANestedLoopsRememberedCheckIsRedoneWhenItsInputsChange) {
  const std::string ptx =
      ".version 8.5\n.target sm_75\n.address_size 64\n\n.visible .entry k(\n\t.param .u64 k_param_0\n)\n{\n"
      "\t.reg .pred %p<4>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<16>;\n"
      "\tld.param.u64 %rd1, [k_param_0];\n\tcvta.to.global.u64 %rd2, %rd1;\n"
      "$L__BB0_1:\n\tmov.u32 %r1, %r8;\n\tadd.s32 %r2, %r8, 16;\n"
      "$L__BB0_2:\n\tmul.wide.u32 %rd5, %r1, 4;\n\tadd.s64 %rd6, %rd2, %rd5;\n\tld.global.u32 %r3, [%rd6];\n"
      "\tadd.s32 %r1, %r1, 1;\n\tsetp.lt.u32 %p1, %r1, %r2;\n\t@%p1 bra $L__BB0_2;\n"
      "\tadd.s32 %r8, %r8, %r9;\n\tadd.s32 %r10, %r10, -1;\n\tsetp.ne.s32 %p2, %r10, 0;\n\t@%p2 bra $L__BB0_1;\n"
      "\tret;\n}\n";
  const GuardedPtx g = guard_ptx(ptx);
  ASSERT_TRUE(g.ok) << g.error;
  ASSERT_EQ(g.loops_proven, 1u) << g.ptx;
  ASSERT_NE(g.ptx.find("c_known"), std::string::npos) << "the nested search's check is not remembered:\n" << g.ptx;
  if (jitlink_status().empty()) {
    const LinkResult l = link_ptx(g.ptx, "sm_75");
    ASSERT_TRUE(l.ok) << l.error;
  }
  const test::PtxProgram prog(g.ptx);
  const uint64_t base = 0x100000000ull, elements = 48, end = base + 4 * elements;
  auto run = [&](uint64_t shift, bool own_window) {
    test::PtxEval e(prog);
    e.table = test::table_words(make_table({{reinterpret_cast<void*>(base), end - base, 4, "data", true, own_window ? 0 : -1}}, {}));
    e.params["k_param_0"] = base;
    e.reg["%r8"] = 0, e.reg["%r9"] = shift, e.reg["%r10"] = 3;
    e.reg["%cvg_w0"] = 0, e.reg["%cvg_w1"] = 0, e.reg["%cvg_l0"] = 0, e.reg["%cvg_l1"] = 0;
    e.run("", {"_fail"}, 100000);
    return e;
  };
  for (bool own_window : {false, true}) {
    SCOPED_TRACE(own_window ? "the parameter's window" : "the table's scan");
    auto taken = [](const test::PtxEval& e, const std::string& end) {
      long long n = 0;
      for (const auto& [label, count] : e.taken)
        if (label.size() >= end.size() && label.compare(label.size() - end.size(), end.size(), end) == 0) n += count;
      return n;
    };
    const test::PtxEval same = run(0, own_window);
    EXPECT_EQ(taken(same, "c_known"), 2) << "entries 2 and 3 reuse the answer\n" << g.ptx;
    EXPECT_EQ(taken(same, "c_check"), 1) << "the first entry goes straight to the check, no compares";
    size_t reads = 0;
    for (const test::Touch& t : same.touched) reads += t.address >= base && t.address + 4 <= end;
    EXPECT_EQ(reads, 48u);
    const test::PtxEval moved = run(20, own_window);
    EXPECT_EQ(taken(moved, "c_known"), 0) << "the start moved: the check ran each time";
    EXPECT_GE(taken(moved, "_slow"), 1) << "the third search leaves the buffer: its guarded copy runs";
    for (const test::Touch& t : moved.touched)
      EXPECT_TRUE(t.address == test::PtxEval::kSink || (t.address >= base && t.address + 4 <= end))
          << "read outside the buffer at " << t.address;
  }
}

}  // namespace
}  // namespace cv::usercode::guard
