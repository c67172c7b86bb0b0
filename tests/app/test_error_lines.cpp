// Every error at its line: on the CPU backend an index out of range through
// s[i] or s.at(i) is named with its line, index and thread (the guard on, as
// by default), a segfault through a raw pointer with its line, thread and the
// buffer's index; on the GPU path (compiled here, run in gpu_tests) checked
// mode's s[i] gets its line from the guard, which follows the PTX's inline
// chain to the student's line. No message names a flag that does not exist.
#include <gtest/gtest.h>

#include <regex>

#include "usercode/compile/compile.h"
#include "usercode/client/fault_words.h"
#include "usercode/guard/guard_abi.h"
#include "usercode/guard/ptx_guard.h"
#include "usercode/client/runner_client.h"
#include "usercode/templates/template_registry.h"
#include "test_config.h"

namespace cv::usercode {
namespace {

// A reduce kernel whose line 5 is `access` (line 3 computes i).
std::string reduce_with(const std::string& access) {
  return "// template: reduce\n"
         "extern \"C\" __global__ void reduce(cv::Span<const int> data, cv::Span<long long> sum) {\n"
         "  const unsigned long long i = cv::global_index();\n"
         "  long long v = 0;\n" +
         access + "\n  atomic_add(&sum[0], v);\n}\n";
}

class ErrorLines : public ::testing::Test {
 protected:
  void SetUp() override {
    if (find_host_compiler(test_config().paths).empty()) GTEST_SKIP() << "no host C++ compiler";
    std::string why;
    path_ = find_runner(test_config().paths.runner, &why);
    if (path_.empty()) GTEST_FAIL() << why;
  }
  // Built for the CPU with the guard (as the window and bench do by default),
  // run on 1,000 elements in blocks of 256: threads 1000..1023 are past the end.
  LaunchOutcome run_cpu(const std::string& source, bool guard = true) {
    CompileRequest req;
    req.build = BuildKind::Cpu;
    req.source = source;
    req.guard = guard;
    req.paths = test_config().paths;
    const CompileResult c = compile(req);
    EXPECT_TRUE(c.ok) << c.first_error() << c.error << c.log.substr(0, 2000);
    EXPECT_EQ(c.checked, guard);
    RunnerClient client(path_, Backend::Cpu);
    EXPECT_TRUE(client.load(c, 10.0).ok);
    Workload w;
    w.n = 1000;
    w.block = {256, 1, 1};
    return client.launch(make_launch(*find_template("reduce"), w), 10.0);
  }
  std::string path_;
};

void expect_out_of_range_at_line_5(const LaunchOutcome& out) {
  ASSERT_FALSE(out.ok);
  ASSERT_TRUE(out.fault);
  const KernelFault& f = *out.fault;
  EXPECT_EQ(f.error_name, "out of range") << f.describe();
  ASSERT_TRUE(f.out_of_range);
  EXPECT_EQ(f.out_of_range->line, 5);
  EXPECT_EQ(f.error_line(), 5);
  EXPECT_EQ(f.out_of_range->size, 1000);
  EXPECT_GE(f.out_of_range->index, 1000);
  // The thread that read it: index = block * 256 + thread.
  EXPECT_EQ(f.out_of_range->index, f.out_of_range->block[0] * 256ll + f.out_of_range->thread[0]);
  EXPECT_NE(f.describe().find("at line 5, thread ("), std::string::npos) << f.describe();
}

TEST_F(ErrorLines, CpuIndexOutOfRangeBySubscriptIsNamedAtItsLine) {
  expect_out_of_range_at_line_5(run_cpu(reduce_with("  if (i <= data.size) v = data[i];")));
}

TEST_F(ErrorLines, CpuIndexOutOfRangeByAtIsNamedAtItsLine) {
  expect_out_of_range_at_line_5(run_cpu(reduce_with("  if (i <= data.size) v = data.at(i);")));
}

TEST_F(ErrorLines, CpuSegfaultThroughARawPointerIsNamedAtItsLine) {
  const LaunchOutcome out = run_cpu(reduce_with("  v = data.data[i * 4096ull * 1024];"));
  ASSERT_FALSE(out.ok);
  ASSERT_TRUE(out.fault);
  const KernelFault& f = *out.fault;
  EXPECT_EQ(f.error_name, "SIGSEGV") << f.describe();
  EXPECT_EQ(f.line, 5);
  EXPECT_EQ(f.error_line(), 5);
  EXPECT_NE(f.explanation.find("segmentation fault"), std::string::npos) << f.explanation;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(f.explanation, m, std::regex(R"(It happened at line 5 in thread \((\d+),0,0\) of block \((\d+),0,0\), touching index (\d+) of data \(1000 elements: \d+ past its end\))")))
      << f.explanation;
  // The thread named is the one whose index touched it (the fast path, built at
  // -O3, may have moved the load before the thread's index was stored: such a
  // fault is run again on the fibers to be named).
  const unsigned long long thread = std::stoull(m[1].str()), block = std::stoull(m[2].str());
  EXPECT_EQ(std::stoull(m[3].str()), (block * 256 + thread) * 4096ull * 1024) << f.explanation;
  EXPECT_EQ(f.explanation.find("fast path"), std::string::npos) << f.explanation;
}

// A whole kernel whose thread 5 of block 2 (global 517) writes past the end
// at line 4, through the emulator as `bench kernel --backend cpu` runs it: its
// correctness launches take the verdict build (Schedule::Verdict), its timed
// ones the fast path. Each names the index, the line, the thread and the block.
TEST_F(ErrorLines, CpuWholeKernelOutOfRangeIsNamedOnEverySchedule) {
  CompileRequest req;
  req.build = BuildKind::Cpu;
  req.template_name = "reverse";
  req.source =
      "// template: reverse\n"
      "extern \"C\" __global__ void reverse(cv::Span<const int> in, cv::Span<int> out) {\n"
      "  const unsigned long long i = cv::global_index();\n"
      "  if (i < in.size) out[i == 517 ? in.size + 3 : in.size - 1 - i] = in[i];\n"
      "}\n";
  req.guard = true;
  req.paths = test_config().paths;
  const CompileResult c = compile(req);
  ASSERT_TRUE(c.ok) << c.first_error() << c.error;
  RunnerClient client(path_, Backend::Cpu);
  ASSERT_TRUE(client.load(c, 10.0).ok);
  for (Schedule s : {Schedule::Verdict, Schedule::Fast, Schedule::Fibers}) {
    SCOPED_TRACE(static_cast<int>(s));
    Workload w;
    w.n = 1000;
    w.block = {256, 1, 1};
    LaunchRequest r = make_launch(*find_template("reverse"), w);
    r.schedule = s;
    const LaunchOutcome out = client.launch(r, 10.0);
    ASSERT_FALSE(out.ok);
    ASSERT_TRUE(out.fault);
    const KernelFault& f = *out.fault;
    EXPECT_EQ(f.error_name, "out of range") << f.describe();
    ASSERT_TRUE(f.out_of_range) << f.describe();
    EXPECT_EQ(f.out_of_range->index, 1003);
    EXPECT_EQ(f.out_of_range->size, 1000);
    EXPECT_EQ(f.out_of_range->line, 4);
    EXPECT_EQ(f.out_of_range->thread[0], 5u);
    EXPECT_EQ(f.out_of_range->block[0], 2u);
    EXPECT_NE(f.describe().find("at line 4, thread (5,0,0)"), std::string::npos) << f.describe();
    EXPECT_EQ(f.describe().find("forbidden"), std::string::npos) << f.describe();
  }
}

TEST_F(ErrorLines, CpuWithoutTheGuardRunsUnchecked) {
  // The guard off: a plain build (run_cpu checks c.checked), and a right kernel runs.
  const LaunchOutcome out = run_cpu(reduce_with("  if (i < data.size) v = data[i];"), false);
  EXPECT_TRUE(out.ok) << (out.fault ? out.fault->describe() : "");
}

// The reduce kernel with `line` as its line 5, built for the GPU (PTX; NVRTC
// needs no GPU) checked and guarded, as the window builds a student's kernel.
CompileResult checked_guarded(const std::string& line) {
  CompileRequest req;
  req.build = BuildKind::Gpu;
  req.arch = "sm_75";
  req.checked = true;
  req.guard = true;
  req.source = reduce_with(line);
  return compile(req);
}

// NVRTC builds PTX without a GPU: checked mode's s[i] carries the line marker
// the guard replaces with the student's line, through the inline chain
// (s[i] -> operator[] -> access(), which stores the marker before it calls
// record_out_of_range()).
TEST(ErrorLinesGpuPath, GuardPlacesCheckedSubscriptsAtTheirLine) {
  if (nvrtc_status().find("NVRTC 1") != 0) GTEST_SKIP() << nvrtc_status();
  const CompileResult c = checked_guarded("  if (i <= data.size) v = data[i];");
  ASSERT_TRUE(c.ok) << c.first_error() << c.error;
  const std::string marker = std::to_string(guard::kLineMarker);
  EXPECT_NE(c.ptx.find(marker), std::string::npos) << "the unguarded PTX keeps the marker";
  ASSERT_TRUE(c.guarded.ok) << c.guarded.error;
  EXPECT_EQ(c.guarded.ptx.find(marker), std::string::npos);
  const size_t at = c.ptx.find(marker);
  EXPECT_TRUE(std::regex_search(c.guarded.ptx, std::regex(R"(mov\.b32\s+%r\d+, 5;)")))
      << "line 5 in its place; the PTX there:\n" << c.ptx.substr(at > 1500 ? at - 1500 : 0, 1700);
  // The guard's own sites of the Span's access are at line 5 too, not the prelude's lines.
  bool at5 = false;
  for (const guard::GuardSite& s : c.guarded.sites) at5 = at5 || (s.line == 5 && s.access == "read");
  EXPECT_TRUE(at5);
}

// The recorder is one function of the module, called from each checked
// access (inlined at each, its atomic and nine stores, each guarded, made the
// window's bounds-checked PTX 2-3x the size and its first JIT as much
// longer); the line marker stays at the access, so the line is the access's.
TEST(ErrorLinesGpuPath, TheRecorderIsOneFunctionEveryCheckedAccessCalls) {
  if (nvrtc_status().find("NVRTC 1") != 0) GTEST_SKIP() << nvrtc_status();
  const CompileResult c = checked_guarded("  if (i <= data.size) v = data[i] + data[i / 2];");
  ASSERT_TRUE(c.ok) << c.first_error() << c.error;
  auto count = [](const std::string& text, const std::regex& re) {
    return std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator());
  };
  // Its definition (a body), not the prototype NVVM declares first.
  const std::regex def(R"(\.func\s+_ZN2cv19record_out_of_range\w*\s*\([^)]*\)\s*\{)"),
      calls(R"(call\.uni\s+_ZN2cv19record_out_of_range)"), cas(R"(atom\.global\.cas)");
  EXPECT_EQ(count(c.ptx, def), 1) << c.ptx;
  EXPECT_GE(count(c.ptx, calls), 2) << "one call a checked access";
  EXPECT_EQ(count(c.ptx, cas), 1) << "the recorder's atomic, once in the module";
  ASSERT_TRUE(c.guarded.ok) << c.guarded.error;
  EXPECT_EQ(count(c.guarded.ptx, def), 1);
  EXPECT_GE(count(c.guarded.ptx, calls), 2);
  EXPECT_EQ(c.guarded.ptx.find(std::to_string(guard::kLineMarker)), std::string::npos) << "every marker got its line";
  EXPECT_GE(count(c.guarded.ptx, std::regex(R"(mov\.b32\s+%r\d+, 5;)")), 2) << "both accesses' line, 5";
}

// The inline chain by hand: the failure path of an s[i] at line 18
// (operator[] -> access() -> record_out_of_range(), in cudaviz.h) placed
// after the code of line 25, as a compiler may lay a cold block out.
TEST(ErrorLinesGpuPath, GuardFollowsTheInlineChainToTheStudentsLine) {
  const std::string ptx =
      ".version 9.0\n.target sm_75\n.address_size 64\n\n.visible .entry k(\n\t.param .u64 k_param_0\n)\n{\n"
      "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n"
      "\t.loc 1 17 3\n\tld.param.u64 %rd1, [k_param_0];\n\tcvta.to.global.u64 %rd2, %rd1;\n"
      "\t.loc 1 18 5\n"
      "\t.loc 2 12 72, function_name $L__info_string0, inlined_at 1 18 5\n"
      "\t.loc 2 14 5, function_name $L__info_string1, inlined_at 2 12 72\n"
      "\tld.global.u32 %r1, [%rd2];\n"
      "\t.loc 1 25 3\n\tst.global.u32 [%rd2+4], %r1;\n"
      "\t.loc 2 6 3, function_name $L__info_string2, inlined_at 2 14 5\n"
      "\tmov.b32 %r3, 2080374783;\n"
      "\t.loc 2 202 3, function_name $L__info_string3, inlined_at 2 6 3\n"
      "\tst.global.u32 [%rd2+8], %r3;\n"
      "\tret;\n}\n\t.file 1 \"/tmp/x/kernel.cu\"\n\t.file 2 \"cudaviz.h\"\n";
  const guard::GuardedPtx g = guard::guard_ptx(ptx);
  ASSERT_TRUE(g.ok) << g.error;
  EXPECT_NE(g.ptx.find("mov.b32 %r3, 18;"), std::string::npos) << g.ptx;
  ASSERT_EQ(g.sites.size(), 3u);
  EXPECT_EQ(g.sites[0].line, 18);  // the Span's load, inlined twice
  EXPECT_EQ(g.sites[1].line, 25);
  EXPECT_EQ(g.sites[2].line, 18);  // four functions deep, after line 25's code
}

TEST(ErrorLinesWords, SignalWhereNamesLineThreadAndIndex) {
  const nlohmann::json reply = {{"fault_address", 1ull << 40}, {"fault_buffer", "out"}, {"fault_index", 1024},
                                {"fault_size", 1000}, {"fault_thread", {3, 0, 0}}, {"fault_block", {1, 0, 0}}};
  EXPECT_EQ(signal_where(reply, 7),
            " It happened at line 7 in thread (3,0,0) of block (1,0,0), touching index 1024 of out "
            "(1000 elements: 25 past its end).");
  EXPECT_EQ(signal_where({{"fault_address", 8}}, 0), " It happened, touching a null pointer.");
  EXPECT_EQ(signal_where(nlohmann::json::object(), 0), "");
}

TEST(ErrorLinesWords, NoMessageNamesAFlagThatDoesNotExist) {
  for (const char* e : {"cudaErrorIllegalAddress", "cudaErrorMisalignedAddress", "SIGSEGV", "SIGBUS", "SIGFPE",
                        "out of range", "time-out", "cudaErrorLaunchFailure"}) {
    const std::string s = explain_error(e, 2.0);
    EXPECT_EQ(s.find("--checked"), std::string::npos) << e;
    EXPECT_EQ(s.find("Turn on checked mode"), std::string::npos) << e;
  }
  KernelFault f;
  f.error_name = "out of range";
  f.out_of_range = OutOfRange{};
  EXPECT_EQ(f.describe().find("use .at(i)"), std::string::npos);
}

}  // namespace
}  // namespace cv::usercode
