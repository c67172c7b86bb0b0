// A slow kernel is called slow, with its progress; a stuck one is an endless
// loop (the CPU runner counts finished blocks in a page the app watches:
// usercode/wire/progress_page.h). And the words themselves.
#include "emu_app_util.h"
#include "usercode/client/fault_words.h"

namespace cv::emu::app_test {
namespace {

TEST(EmuProgress, SlowWordsSayHowFarItGot) {
  const std::string w = usercode::slow_words(1200, 65536, 2.0);
  EXPECT_EQ(w.rfind("slow: 1,200 of 65,536 blocks in 2.0 s", 0), 0u) << w;
  EXPECT_EQ(w.find("endless loop?"), std::string::npos);
  EXPECT_EQ(usercode::seconds_text(0.35), "350 ms");
}

// A count3 kernel whose threads each spin a while (finite) or for ever.
usercode::LaunchOutcome run_spinning(const std::string& body, double limit_s) {
  Case c;
  c.name = "spin";
  c.path = "spin.cu";
  c.source = "// template: count3\n"
             "extern \"C\" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {\n"
             "  volatile unsigned spin = 0;\n" + body + "\n"
             "  if (cv::global_index() < data.size && spin == 1) count[0] = 1;\n"
             "}\n";
  c.spec = usercode::find_template("count3");
  const usercode::CompileResult built = compile_cpu(c);
  EXPECT_TRUE(built.ok) << built.first_error() << built.error;
  usercode::RunnerClient client(usercode::find_runner(test_config().paths.runner), Backend::Cpu);
  EXPECT_TRUE(client.load(built, 30).ok);
  usercode::Workload w = usercode::first_launch(*c.spec, 256 * 512, c.spec->default_block);  // 512 blocks
  return client.launch(usercode::make_launch(*c.spec, w, "editor"), limit_s);
}

TEST(EmuProgress, ASlowKernelIsSlowNotEndless) {
  if (usercode::find_host_compiler(test_config().paths).empty()) GTEST_SKIP() << "no host C++ compiler";
  // Each thread a few hundred microseconds: 512 blocks take seconds, finishing blocks all the while.
  // (The bound depends on the thread: a loop the same for the whole block, on a
  // value nothing else reads, the fast path may run once a block.)
  const usercode::LaunchOutcome o =
      run_spinning("  for (unsigned k = 0; k < 300000u + (threadIdx.x & 1u); ++k) spin = spin + 1;", 0.3);
  ASSERT_FALSE(o.ok);
  EXPECT_EQ(o.fault->error_name, "slow") << o.fault->explanation;
  EXPECT_NE(o.fault->explanation.find(" of 512 blocks in "), std::string::npos) << o.fault->explanation;
  EXPECT_EQ(o.fault->explanation.find("endless loop?"), std::string::npos);
}

TEST(EmuProgress, AStuckKernelIsAnEndlessLoop) {
  if (usercode::find_host_compiler(test_config().paths).empty()) GTEST_SKIP() << "no host C++ compiler";
  const usercode::LaunchOutcome o = run_spinning("  for (;;) spin = spin + 1;", 0.2);
  ASSERT_FALSE(o.ok);
  EXPECT_EQ(o.fault->error_name, "time-out");
  EXPECT_NE(o.fault->explanation.find("endless loop?"), std::string::npos) << o.fault->explanation;
  EXPECT_NE(o.fault->explanation.find("0 of 512 blocks had finished"), std::string::npos) << o.fault->explanation;
}

}  // namespace
}  // namespace cv::emu::app_test
