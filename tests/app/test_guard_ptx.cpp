// The guard's PTX rewriter on hand-written PTX (docs/guard.md): every
// ld/st/atom/red form gets its check (vector widths, predicated instructions,
// generic addresses, atomics and reductions, shared and local arrays), the
// count of checked instructions equals an independent count of memory
// instructions, refused constructs name their line, and every guarded module
// is valid PTX: nvJitLink builds it for sm_75 and sm_90 (no GPU needed).
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "app/ptx_eval.h"
#include "usercode/guard/guard_abi.h"
#include "usercode/compile/jitlink.h"
#include "usercode/guard/ptx_guard.h"
#include "usercode/guard/ptx_text.h"
#include "usercode/runner/guard_runtime.h"

namespace cv::usercode::guard {
namespace {

// A module with one kernel `k(.param .u64 p0)`; `decls` inside the body
// before `body`. Line 1 of the body is the student's line 10 (.loc 1 10).
std::string module(const std::string& body, const std::string& decls = "",
                   const std::string& module_decls = "") {
  return ".version 9.0\n.target sm_75\n.address_size 64\n\n" + module_decls +
         "\n.visible .entry k(\n\t.param .u64 k_param_0\n)\n{\n"
         "\t.reg .pred %p<4>;\n\t.reg .b16 %rs<4>;\n\t.reg .b32 %r<16>;\n\t.reg .f32 %f<16>;\n"
         "\t.reg .b64 %rd<16>;\n\t.reg .f64 %fd<4>;\n" + decls +
         "\t.loc 1 10 3\n\tld.param.u64 %rd1, [k_param_0];\n\tcvta.to.global.u64 %rd2, %rd1;\n" + body +
         "\tret;\n}\n\t.file 1 \"/tmp/x/kernel.cu\"\n\t.file 2 \"cudaviz.h\"\n";
}

// Guards `ptx`, checks the counts agree and that nvJitLink builds it for both archs.
GuardedPtx guarded(const std::string& ptx) {
  GuardedPtx g = guard_ptx(ptx);
  EXPECT_TRUE(g.ok) << g.error;
  EXPECT_EQ(g.memory_instructions, count_memory_instructions(ptx));
  EXPECT_EQ(g.guarded_instructions, g.sites.size());
  EXPECT_EQ(count_marked_sites(g.ptx), g.sites.size());
  EXPECT_EQ(g.guarded_instructions, g.memory_instructions);
  if (!jitlink_status().empty()) {
    ADD_FAILURE() << "nvJitLink is part of the CUDA 13 toolkit the build uses: " << jitlink_status();
    return g;
  }
  for (const char* arch : {"sm_75", "sm_90"}) {
    const LinkResult l = link_ptx(g.ptx, arch);
    EXPECT_TRUE(l.ok) << arch << ": " << l.error << "\n" << g.ptx;
    EXPECT_FALSE(l.cubin.empty());
  }
  return g;
}

TEST(GuardPtx, SplitKeepsTheTextAndFindsStatementsAcrossLines) {
  const std::string ptx = module(
      "\tcall.uni (retval0), \n\tvprintf, \n\t(\n\tparam0, \n\tparam1\n\t);\n$L__BB0_1:\n"
      "\t{ .reg .b32 t; mov.u32 t, 1; }\n");
  std::string back;
  int calls = 0, labels = 0, opens = 0;
  for (const Piece& p : split_ptx(ptx)) {
    back += p.text;
    calls += p.kind == PieceKind::Stmt && p.text.find("call.uni") != std::string::npos;
    labels += p.kind == PieceKind::Label;
    opens += p.kind == PieceKind::Open;
  }
  EXPECT_EQ(back, ptx);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(labels, 1);
  EXPECT_EQ(opens, 2);  // the body and the inline block
  Instruction ins;
  ASSERT_TRUE(parse_instruction("@!%p1 st.global.v4.f32 [%rd2+16], {%f1, %f2, %f3, %f4};", ins));
  EXPECT_EQ(ins.guard, "%p1");
  EXPECT_TRUE(ins.guard_negated);
  EXPECT_EQ(ins.opcode, "st.global.v4.f32");
  ASSERT_EQ(ins.operands.size(), 2u);
  EXPECT_EQ(ins.operands[0], "[%rd2+16]");
  EXPECT_EQ(ins.operands[1], "{%f1, %f2, %f3, %f4}");
}

TEST(GuardPtx, EveryWidthAndQualifierIsChecked) {
  const GuardedPtx g = guarded(module(
      "\tld.global.u8 %rs1, [%rd2];\n"
      "\tld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd2+16];\n"
      "\tld.global.nc.L1::no_allocate.v2.f64 {%fd1, %fd2}, [%rd2+32];\n"
      "\tld.volatile.global.u32 %r1, [%rd2];\n"
      "\tld.relaxed.gpu.global.u32 %r2, [%rd2+4];\n"
      "\tld.acquire.sys.global.u64 %rd3, [%rd2+8];\n"
      "\tst.global.v2.u32 [%rd2+8], {%r1, %r2};\n"
      "\tst.release.gpu.global.u16 [%rd2+2], %rs1;\n"
      "\tldu.global.f32 %f5, [%rd2];\n"));
  ASSERT_EQ(g.sites.size(), 9u);
  const unsigned widths[] = {1, 16, 16, 4, 4, 8, 8, 2, 4};
  for (size_t i = 0; i < 9; ++i) {
    EXPECT_EQ(g.sites[i].width, widths[i]) << i;
    EXPECT_EQ(g.sites[i].space, "global");
    EXPECT_EQ(g.sites[i].line, 10);
  }
  EXPECT_EQ(g.sites[0].access, "read");
  EXPECT_EQ(g.sites[6].access, "write");
  // Through a parameter's pointer (access_roots.h), the fence (docs/guard.md
  // "Fences"): the base minus that buffer's start (at a fixed offset) against
  // the room of width class 32 (offset 16 plus 16 bytes), the alignment
  // proven (the parameter's pointer itself plus 16), the load's registers
  // zeroed and the load predicated, before the one branch; out of line,
  // every buffer is tried and the load runs at its own address, or the
  // failure is recorded, going on past it.
  EXPECT_NE(g.ptx.find("[cv_guard_table+272];"), std::string::npos);
  EXPECT_NE(g.ptx.find("ld.const.u64 %cvg_d3, [cv_guard_table+328];\n\tsub.s64 %cvg_d1, %rd2, %cvg_d2;\n\t"
                       "setp.lt.u64 %cvg_p0, %cvg_d1, %cvg_d3;\n\tmov.b32 %f1, 0;"),
            std::string::npos) << g.ptx;
  EXPECT_NE(g.ptx.find("mov.b32 %f4, 0;\n\t@%cvg_p0 ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd2+16];\n\t"
                       "@!%cvg_p0 bra $cvg_1_slow;\n$cvg_1_after:"),
            std::string::npos) << g.ptx;
  EXPECT_NE(g.ptx.find("@!%cvg_p0 bra $cvg_1_fail;\n\tld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd2+16];\n\tbra "
                       "$cvg_1_after;"),
            std::string::npos);
  for (const char* zero : {"mov.b32 %f1, 0;", "mov.b32 %f4, 0;", "mov.b64 %fd2, 0;", "mov.b16 %rs1, 0;"})
    EXPECT_NE(g.ptx.find(zero), std::string::npos) << zero;
  // The alignment of a 16-byte access is tested with mask 15.
  EXPECT_NE(g.ptx.find("and.b64 %cvg_d6, %cvg_d0, 15;"), std::string::npos);
  EXPECT_NE(g.ptx.find("setp.eq.and.u64 %cvg_p0, %cvg_d6, 0, %cvg_p0;"), std::string::npos);
  // Past the parameter's own buffer (the slow way), one loop over the table's
  // count: no entries unrolled at fixed offsets (they were code the JIT compiled
  // at every site for a way rarely taken).
  EXPECT_NE(g.ptx.find("[cv_guard_table+272];\n\tsetp.ge.s64 %cvg_p0, %cvg_d0, %cvg_d2;\n\tsetp.le.and.u64 %cvg_p0, "
                       "%cvg_d1, %cvg_d3, %cvg_p0;\n\t@%cvg_p0 bra $cvg_0_guarded;\n\tld.const.u32 %cvg_r0, "
                       "[cv_guard_table];\n\tmov.u64 %cvg_d4, cv_guard_table;\n$cvg_0_loop:"),
            std::string::npos) << g.ptx;
  EXPECT_EQ(g.ptx.find("ld.const.v2.u64 {%cvg_d2, %cvg_d3}, [cv_guard_table+16];"), std::string::npos);
}

// A checked s[i] (cudaviz.h Span::access) loads through the parameter's
// pointer plus i, or, once i was found out of range, through the prelude's
// stand-in cv_scratch: the parameter's fence still comes first (not the scan
// of every buffer at the site), and the stand-in is found in the table on the
// slow way. Any other module variable on the other way in stays a scan.
TEST(GuardPtx, ACheckedReadsStandInKeepsItsParametersFence) {
  auto kernel = [](const char* other) {
    return module("\tsetp.gt.u64 %p1, %rd5, %rd6;\n\t@%p1 bra $L__BB0_2;\n\tmov.u64 %rd3, " + std::string(other) +
                      ";\n\tbra.uni $L__BB0_3;\n$L__BB0_2:\n\tshl.b64 %rd4, %rd6, 2;\n\tadd.s64 %rd3, %rd2, %rd4;\n"
                      "$L__BB0_3:\n\tld.global.u32 %r1, [%rd3];\n",
                  "", ".global .align 16 .b8 cv_scratch[64];\n.global .align 16 .b8 other[64];\n");
  };
  const GuardedPtx g = guarded(kernel(kScratchName));
  ASSERT_EQ(g.sites.size(), 1u);
  // The fence against parameter 0's window (Table::param[0] at +272).
  EXPECT_NE(g.ptx.find("ld.const.u64 %cvg_d2, [cv_guard_table+272];\n\tld.const.u64 %cvg_d3, [cv_guard_table+304];\n\t"
                       "sub.s64 %cvg_d1, %rd3, %cvg_d2;"),
            std::string::npos) << g.ptx;
  // Run by the evaluator: in range, the load runs at the parameter's element;
  // out of range (the stand-in's way), at the stand-in, found in the table
  // (the module's variables follow the buffers there); and a register whose
  // only way in is the stand-in is not fenced as a parameter's, yet its load runs.
  const test::PtxProgram prog(g.ptx);
  const uint64_t base = 0x100000000ull, scratch = 0x200000000ull;
  for (const bool in_range : {true, false}) {
    SCOPED_TRACE(in_range ? "in range" : "the stand-in");
    test::PtxEval e(prog);
    e.params["k_param_0"] = base;
    e.symbols[kScratchName] = scratch;
    e.reg["%rd5"] = in_range ? 8 : 3, e.reg["%rd6"] = in_range ? 3 : 8;  // %p1: i < size
    e.table = test::table_words(make_table({{reinterpret_cast<void*>(base), 16, 4, "data", false, 0}}, {{scratch, scratch + 64}}));
    const std::string end = e.run("", {"_fail"}, 10000);
    EXPECT_TRUE(end.empty()) << "stopped at " << end << "\n" << g.ptx;
    ASSERT_EQ(e.touched.size(), 1u);
    EXPECT_EQ(e.touched[0].address, in_range ? base + 12 : scratch);
  }
  const GuardedPtx o = guarded(kernel("other"));
  EXPECT_EQ(o.ptx.find("sub.s64 %cvg_d1, %rd3, %cvg_d2;"), std::string::npos) << "another variable: no parameter's fence\n"
                                                                                 << o.ptx;
}

TEST(GuardPtx, PredicatedInstructionsKeepTheirPredicate) {
  const GuardedPtx g = guarded(module(
      "\tsetp.ne.s32 %p1, %r1, 0;\n"
      "\t@%p1 st.global.u32 [%rd2], %r1;\n"
      "\t@!%p1 ld.global.u32 %r3, [%rd2];\n"));
  ASSERT_EQ(g.sites.size(), 2u);
  // Predicated off: the check and the access are both skipped.
  EXPECT_NE(g.ptx.find("@!%p1 bra $cvg_0_after;"), std::string::npos);
  EXPECT_NE(g.ptx.find("@%p1 bra $cvg_1_after;"), std::string::npos);
  EXPECT_NE(g.ptx.find("@%cvg_p0 st.global.u32 [%rd2], %r1;\n\t@!%cvg_p0 bra $cvg_0_slow;\n$cvg_0_after:"),
            std::string::npos);
  EXPECT_NE(g.ptx.find("@%cvg_p0 ld.global.u32 %r3, [%rd2];\n\t@!%cvg_p0 bra $cvg_1_slow;\n$cvg_1_after:"),
            std::string::npos);
  EXPECT_NE(g.ptx.find("bra $cvg_0_fail;\n\tst.global.u32 [%rd2], %r1;\n\tbra $cvg_0_after;"), std::string::npos);
  // The original predicated instruction is gone (only the guarded copy remains).
  EXPECT_EQ(g.ptx.find("@%p1 st.global"), std::string::npos);
}

TEST(GuardPtx, GenericAddressesArePlacedInTheirWindowFirst) {
  const GuardedPtx g = guarded(module("\tld.u32 %r1, [%rd1];\n\tst.f32 [%rd1+4], %f1;\n"));
  ASSERT_EQ(g.sites.size(), 2u);
  EXPECT_EQ(g.sites[0].space, "generic");
  EXPECT_NE(g.ptx.find("isspacep.shared %cvg_p2, %cvg_d0;"), std::string::npos);
  EXPECT_NE(g.ptx.find("isspacep.local %cvg_p2, %cvg_d0;"), std::string::npos);
  EXPECT_NE(g.ptx.find("cvta.to.shared.u64 %cvg_d5, %cvg_d0;"), std::string::npos);
  EXPECT_NE(g.ptx.find("cvta.to.local.u64 %cvg_d5, %cvg_d0;"), std::string::npos);
  EXPECT_NE(g.ptx.find("add.s64 %cvg_d0, %rd1, 4;"), std::string::npos);
}

TEST(GuardPtx, AtomicsAndReductionsAreChecked) {
  const GuardedPtx g = guarded(module(
      "\tatom.global.add.u32 %r2, [%rd2], 1;\n"
      "\tatom.global.cas.b64 %rd4, [%rd2+8], %rd5, %rd6;\n"
      "\tatom.add.f32 %f1, [%rd1], %f2;\n"
      "\tred.global.add.u64 [%rd2+8], %rd3;\n"
      "\tred.relaxed.gpu.global.max.s32 [%rd2], %r1;\n"
      "\tatom.global.exch.b32 %r5, [%rd2], %r1;\n"));
  ASSERT_EQ(g.sites.size(), 6u);
  for (const GuardSite& s : g.sites) EXPECT_EQ(s.access, "atomic");
  EXPECT_EQ(g.sites[1].width, 8u);
  EXPECT_EQ(g.sites[2].space, "generic");
  EXPECT_NE(g.ptx.find("mov.b32 %r2, 0;"), std::string::npos) << "a skipped atom leaves its result defined";
}

TEST(GuardPtx, SharedArraysAreCheckedAgainstTheBlocksWindow) {
  const GuardedPtx g = guarded(module(
      "\tmov.u32 %r1, s_arr;\n\tst.shared.u32 [%r1+8], %r2;\n\tst.shared.u32 [s_arr+4], %r2;\n"
      "\tst.shared.u32 [s_arr+4096], %r2;\n\tld.shared.u64 %rd3, [%rd4];\n"
      "\tmov.u64 %rd5, dyn;\n\tld.shared.f32 %f1, [%rd5];\n",
      "\t.shared .align 4 .b8 s_arr[1024];\n", ".extern .shared .align 16 .b8 dyn[];\n"));
  ASSERT_EQ(g.sites.size(), 5u);
  EXPECT_TRUE(g.sites[1].proven) << "a fixed offset inside the variable needs no code";
  EXPECT_FALSE(g.sites[2].proven) << "past the variable's 1024 bytes: checked at run time";
  // The fence: [%r1, %r1 + 16) (offset 8 plus 4 bytes, class 16) inside the window.
  EXPECT_NE(g.ptx.find("sub.s32 %cvg_r2, %r1, %cvg_w0;\n\tsetp.lt.u32 %cvg_p0, %cvg_r2, %cvg_k4;"), std::string::npos);
  EXPECT_NE(g.ptx.find("%dynamic_smem_size"), std::string::npos);
  // The window: from the lowest variable to the highest end, once a function.
  EXPECT_TRUE(std::regex_search(g.ptx, std::regex(R"(mov.u32 %cvg_(w0|r0), s_arr;)")));
  EXPECT_NE(g.ptx.find("sub.s32 %cvg_w1, %cvg_w2, %cvg_w0;"), std::string::npos);
  EXPECT_NE(g.ptx.find("sub.s32 %cvg_k4, %cvg_w1, 15;\n\tmax.s32 %cvg_k4, %cvg_k4, 0;"), std::string::npos);
}

TEST(GuardPtx, LocalArraysAreCheckedAgainstTheFrame) {
  const GuardedPtx g = guarded(module(
      "\tmov.u64 %SPL, __local_depot0;\n\tcvta.local.u64 %SP, %SPL;\n"
      "\tadd.u64 %rd3, %SPL, 0;\n\tst.local.u32 [%rd3], %r1;\n"
      "\tmul.wide.u32 %rd4, %r2, 4;\n\tadd.s64 %rd5, %rd3, %rd4;\n\tld.local.u32 %r3, [%rd5];\n"
      "\tld.u32 %r4, [%SP+8];\n",
      "\t.local .align 4 .b8 __local_depot0[40];\n\t.reg .b64 %SP;\n\t.reg .b64 %SPL;\n"));
  ASSERT_EQ(g.sites.size(), 3u);
  EXPECT_EQ(g.sites[0].space, "local");
  EXPECT_EQ(g.sites[2].space, "generic");
  EXPECT_NE(g.ptx.find("mov.u64 %cvg_l0, __local_depot0;"), std::string::npos);
  EXPECT_NE(g.ptx.find("add.s64 %cvg_l1, %cvg_l0, 40;"), std::string::npos);
  // The fence: room for 4 bytes in a 40-byte frame is 37 offsets.
  EXPECT_NE(g.ptx.find("sub.s64 %cvg_d1, %rd3, %cvg_l0;\n\tsetp.lt.u64 %cvg_p0, %cvg_d1, 37;"), std::string::npos);
}

TEST(GuardPtx, ParamAndConstAreNotMemoryTheGuardChecks) {
  const std::string ptx = module("\tld.const.u32 %r1, [c];\n\tld.param.u64 %rd3, [k_param_0];\n",
                                 "", ".const .align 4 .b8 c[16];\n");
  const GuardedPtx g = guarded(ptx);
  EXPECT_EQ(g.memory_instructions, 0u);
  EXPECT_EQ(g.sites.size(), 0u);
}

TEST(GuardPtx, ModuleGlobalsAreListedForTheTable) {
  const GuardedPtx g = guarded(module("\tmov.u64 %rd3, g_arr;\n\tld.global.u32 %r1, [%rd3];\n"
                                      "\tst.global.u32 [g_arr+4], %r1;\n\tld.global.u32 %r2, [g_arr+16];\n",
                                      "", ".global .align 4 .b8 g_arr[16];\n"));
  ASSERT_EQ(g.module_globals, std::vector<std::string>{"g_arr"});
  EXPECT_TRUE(g.sites[1].proven);
  EXPECT_FALSE(g.sites[2].proven) << "[g_arr+16] is past its 16 bytes";
  EXPECT_NE(g.ptx.find(".const .align 16 .b8 cv_guard_table[" + std::to_string(sizeof(Table)) + "];"),
            std::string::npos);
  EXPECT_NE(g.ptx.find(".global .align 16 .b8 cv_guard_record[" + std::to_string(sizeof(Record)) + "];"),
            std::string::npos);
}

TEST(GuardPtx, StudentLinesFollowLocAndInlinedAt) {
  const GuardedPtx g = guarded(module(
      "\t.loc 1 17 3\n\tld.global.u32 %r1, [%rd2];\n"
      "\t.loc 1 18 5\n\t.loc 2 123 3, function_name $L__info_string0, inlined_at 1 18 5\n\tld.global.u32 %r2, [%rd2];\n"
      "\t.loc 2 0 3\n\tst.global.u32 [%rd2], %r2;\n",
      "", "\t.section\t.debug_str\n\t{\n$L__info_string0:\n.b8 102,0\n\t}\n"));
  ASSERT_EQ(g.sites.size(), 3u);
  EXPECT_EQ(g.sites[0].line, 17);
  EXPECT_EQ(g.sites[1].line, 18) << "code inlined from the prelude is at the student's call";
  EXPECT_EQ(g.sites[2].line, 18) << "a prelude line 0 keeps the last student line";
}

TEST(GuardPtx, FailurePathRecordsTheFirstFailureOnly) {
  const GuardedPtx g = guarded(module("\tst.global.u32 [%rd2], %r1;\n"));
  EXPECT_NE(g.ptx.find("atom.global.cas.b32 %cvg_r0, [cv_guard_record], 0, 1;"), std::string::npos);
  EXPECT_NE(g.ptx.find("@!%cvg_p1 bra $cvg_0_zero;"), std::string::npos);
  for (int off : {4, 8, 12, 16, 56, 68, 76})
    EXPECT_NE(g.ptx.find("[cv_guard_record+" + std::to_string(off) + "]"), std::string::npos) << off;
}

GuardedPtx refused(const std::string& ptx) {
  const GuardedPtx g = guard_ptx(ptx);
  EXPECT_FALSE(g.ok);
  EXPECT_TRUE(g.ptx.empty());
  return g;
}

TEST(GuardPtx, UncheckableInstructionsAreRefusedWithTheirLine) {
  struct Case {
    std::string body, words;
  } cases[] = {
      {"\tcall (retval0), %rd3, (param0), prototype_0;\n", "function pointer"},
      {"\ttex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [tex0, {%r1}];\n", "texture"},
      {"\tsuld.b.1d.b32.trap {%r1}, [surf0, {%r2}];\n", "texture or surface"},
      {"\tcp.async.bulk.global.shared::cta.bulk_group [%rd2], [%r1], 64;\n", "bulk copy"},
      {"\tcp.async.ca.shared.global [%r1], [%rd2], 16;\n", "asynchronous"},
      {"\tprefetch.global.L2 [%rd2];\n", "prefetch"},
      {"\tld.shared::cluster.u32 %r1, [%r2];\n", "another block's shared memory"},
      {"\tld.global.u32 %r1, [%rd2+%rd3];\n", "address the guard cannot read"},
      {"\tst.global.u32 [nowhere], %r1;\n", "cannot place"},
      {"\tfrobnicate.b32 %r1, %r2;\n", "does not know"},
      {"\tcall.uni (retval0), malloc, (param0);\n", "malloc"},
      {"\tcall.uni (retval0), some_extern, (param0);\n", "cannot see into"},
      {"\tldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r1}, [%r2];\n", "matrix"},
  };
  for (const Case& c : cases) {
    const GuardedPtx g = refused(module("\t.loc 1 23 1\n" + c.body));
    EXPECT_NE(g.error.find("line 23"), std::string::npos) << c.body << " -> " << g.error;
    EXPECT_NE(g.error.find(c.words), std::string::npos) << c.body << " -> " << g.error;
    EXPECT_EQ(g.error_line, 23);
  }
  // Calls the guard can follow pass.
  guarded(module("\t{\n\t.param .b64 param0;\n\t.param .b64 param1;\n\t.param .b32 retval0;\n"
                 "\tcall.uni (retval0), \n\tvprintf, \n\t(\n\tparam0, \n\tparam1\n\t);\n\t}\n",
                 "", ".extern .func (.param .b32 func_retval0) vprintf\n(\n\t.param .b64 vprintf_param_0,\n"
                     "\t.param .b64 vprintf_param_1\n)\n;\n"));
  const GuardedPtx twice = guard_ptx(guard_ptx(module("\tst.global.u32 [%rd2], %r1;\n")).ptx);
  EXPECT_FALSE(twice.ok) << "guarded PTX is not guarded twice";
}

// Inline PTX comes in its own { } block, whose labels the function's end
// cannot see: the failure path of an access there stays inside the block.
TEST(GuardPtx, AccessesInsideInlineBlocks) {
  const GuardedPtx g = guarded(module(
      "\t{\n\t.reg .b64 a;\n\tcvta.to.global.u64 a, %rd1;\n\tld.global.u32 %r1, [a];\n"
      "\tst.global.u32 [a+4], %r1;\n\t}\n"));
  ASSERT_EQ(g.sites.size(), 2u);
  const size_t fail = g.ptx.find("$cvg_0_fail:"), close = g.ptx.find("\t}\n", g.ptx.find("[a+4]"));
  ASSERT_NE(fail, std::string::npos);
  EXPECT_LT(fail, close) << "the failure path is inside the block";
  EXPECT_NE(g.ptx.find("@%cvg_p0 bra $cvg_0_ok;"), std::string::npos);
  EXPECT_LT(g.ptx.find("bra $cvg_0_after;"), g.ptx.find("$cvg_0_ok:")) << "the failure path jumps past the access";
}

// Accesses through one register at constant offsets in a straight run share
// one check of their whole range (docs/guard.md "Grouped checks"): the run
// is emitted twice, unchecked after the group's check and checked as usual
// when it fails; every site is still marked once.
TEST(GuardPtx, GroupedAccessesShareOneCheck) {
  const GuardedPtx g = guarded(module(
      "\tld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [%rd3];\n"
      "\tadd.f32 %f5, %f1, %f2;\n"
      "\tld.shared.v4.f32 {%f6, %f7, %f8, %f9}, [%rd3+16];\n"
      "\tld.global.u32 %r1, [%rd2];\n"
      "\tld.shared.f32 %f10, [%rd3+36];\n",
      "\t.shared .align 16 .b8 tile[256];\n"));
  ASSERT_EQ(g.sites.size(), 4u);
  EXPECT_EQ(g.grouped_instructions, 3u);
  EXPECT_NE(g.ptx.find("group 0: 3 accesses through %rd3 guarded at once ([%rd3+0, %rd3+40), shared, aligned to 16)"),
            std::string::npos) << g.ptx;
  EXPECT_NE(g.ptx.find("add.s64 %cvg_d1, %cvg_d0, 40;"), std::string::npos) << "the whole range at once";
  EXPECT_NE(g.ptx.find("@!%cvg_p0 bra $cvg_g0_slow;"), std::string::npos);
  // The fast copy runs the members unchecked and the other access checked
  // under its own labels, then jumps over the guarded copy.
  const size_t fast = g.ptx.find("@!%cvg_p0 bra $cvg_g0_slow;"), slow = g.ptx.find("$cvg_g0_slow:"),
               done = g.ptx.find("$cvg_g0_done:");
  ASSERT_LT(fast, slow);
  ASSERT_LT(slow, done);
  const std::string fast_code = g.ptx.substr(fast, slow - fast);
  EXPECT_NE(fast_code.find("bra $cvg_g0_done;"), std::string::npos);
  EXPECT_NE(fast_code.find("copy of site 0, guarded by group 0\n\tld.shared.v4.f32"), std::string::npos) << fast_code;
  EXPECT_NE(fast_code.find("bra $cvg_2f_slow;"), std::string::npos) << "the global read keeps its fence" << fast_code;
  EXPECT_EQ(fast_code.find("bra $cvg_0_fail;"), std::string::npos);
  EXPECT_NE(g.ptx.find("$cvg_2f_fail:"), std::string::npos);
  // The slow copy checks each access as an ungrouped one would.
  const std::string slow_code = g.ptx.substr(slow, done - slow);
  for (const char* each : {"bra $cvg_0_fail;", "bra $cvg_1_fail;", "bra $cvg_2_slow;", "bra $cvg_3_fail;"})
    EXPECT_NE(slow_code.find(each), std::string::npos) << each;
}

TEST(GuardPtx, GroupsEndWhereTheBaseChangesOrTheRunEnds) {
  // The base register written between two accesses: no group.
  EXPECT_EQ(guarded(module("\tld.global.u32 %r1, [%rd2];\n\tadd.s64 %rd2, %rd2, 4;\n\tld.global.u32 %r2, [%rd2];\n"))
                .grouped_instructions, 0u);
  // A load into its own base: it may join, what follows may not.
  EXPECT_EQ(guarded(module("\tld.global.u64 %rd4, [%rd2];\n\tld.global.u64 %rd2, [%rd2+8];\n"
                           "\tld.global.u64 %rd5, [%rd2+16];\n"))
                .grouped_instructions, 2u);
  // A label or a branch between them: no group.
  EXPECT_EQ(guarded(module("\tld.global.u32 %r1, [%rd2];\n$L__BB0_1:\n\tld.global.u32 %r2, [%rd2+4];\n"))
                .grouped_instructions, 0u);
  EXPECT_EQ(guarded(module("\tld.global.u32 %r1, [%rd2];\n\tsetp.ne.s32 %p1, %r1, 0;\n\t@%p1 bra $L__BB0_1;\n"
                           "\tld.global.u32 %r2, [%rd2+4];\n$L__BB0_1:\n"))
                .grouped_instructions, 0u);
  // A barrier or a warp shuffle between them: threads of one warp may take
  // different copies of the run, and such an instruction must not be split.
  EXPECT_EQ(guarded(module("\tld.global.u32 %r1, [%rd2];\n\tbar.sync 0;\n\tld.global.u32 %r2, [%rd2+4];\n"))
                .grouped_instructions, 0u);
  EXPECT_EQ(guarded(module("\tld.global.u32 %r1, [%rd2];\n\tshfl.sync.bfly.b32 %r3, %r1, 1, 31, -1;\n"
                           "\tld.global.u32 %r2, [%rd2+4];\n"))
                .grouped_instructions, 0u);
  // An offset that is not a multiple of the width, a predicated access, a generic one: each alone.
  EXPECT_EQ(guarded(module("\tld.global.u32 %r1, [%rd2];\n\tld.global.u32 %r2, [%rd2+2];\n")).grouped_instructions, 0u);
  EXPECT_EQ(guarded(module("\tsetp.ne.s32 %p1, %r1, 0;\n\tld.global.u32 %r1, [%rd2];\n\t@%p1 ld.global.u32 %r2, [%rd2+4];\n"))
                .grouped_instructions, 0u);
  EXPECT_EQ(guarded(module("\tld.u32 %r1, [%rd2];\n\tld.u32 %r2, [%rd2+4];\n")).grouped_instructions, 0u);
  // Stores join too (their first operand is the address, not a destination).
  const GuardedPtx st = guarded(module("\tst.global.u32 [%rd2], %r1;\n\tst.global.u32 [%rd2+4], %r1;\n"
                                       "\tst.global.u32 [%rd2+8], %r1;\n"));
  EXPECT_EQ(st.grouped_instructions, 3u);
  EXPECT_NE(st.ptx.find("([%rd2+0, %rd2+12), global, aligned to 4)"), std::string::npos) << st.ptx;
}

TEST(GuardPtx, DeviceFunctionsAreRewrittenToo) {
  const std::string ptx =
      ".version 9.0\n.target sm_75\n.address_size 64\n\n"
      ".func (.param .b32 func_retval0) helper(\n\t.param .b64 helper_param_0\n)\n{\n"
      "\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<3>;\n\tld.param.u64 %rd1, [helper_param_0];\n"
      "\tld.u32 %r1, [%rd1];\n\tst.param.b32 [func_retval0], %r1;\n\tret;\n}\n"
      ".visible .entry k(\n\t.param .u64 k_param_0\n)\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<3>;\n"
      "\tld.param.u64 %rd1, [k_param_0];\n\t{\n\t.param .b64 param0;\n\tst.param.b64 [param0], %rd1;\n"
      "\t.param .b32 retval0;\n\tcall.uni (retval0), helper, (param0);\n\tld.param.b32 %r1, [retval0];\n\t}\n"
      "\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n";
  const GuardedPtx g = guarded(ptx);
  ASSERT_EQ(g.sites.size(), 2u);
  EXPECT_EQ(g.sites[0].function, "helper");
  EXPECT_EQ(g.sites[1].function, "k");
}

}  // namespace
}  // namespace cv::usercode::guard
