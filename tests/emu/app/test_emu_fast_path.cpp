// The emulator's fast path (loop fission, docs/emulator.md) against its
// fibers, through the runner as the app runs kernels: every shipped whole
// kernel and the corpus give byte-identical buffers, and every shipped one
// takes the fast path.
#include "emu_app_util.h"

namespace cv::emu::app_test {
namespace {

TEST(EmuFastPath, EveryWholeKernelGivesTheFibersBuffersByteForByte) {
  if (usercode::find_host_compiler(test_config().paths).empty()) GTEST_SKIP() << "no host C++ compiler";
  usercode::RunnerClient client(usercode::find_runner(test_config().paths.runner), Backend::Cpu);
  int compared = 0;
  for (const Case& c : whole_kernels()) {
    SCOPED_TRACE(c.name);
    if (racy(c)) continue;  // its blocks race on two workers: any two runs may differ
    const usercode::CompileResult built = compile_cpu(c);
    ASSERT_TRUE(built.ok) << built.first_error() << built.error;
    ASSERT_TRUE(client.load(built, 30).ok);
    // Three reps: the scenes' ping-pong buffers swap between them.
    const usercode::LaunchOutcome fast = client.launch(small_launch(c, usercode::Schedule::Fast, 3), 30);
    const usercode::LaunchOutcome fibers = client.launch(small_launch(c, usercode::Schedule::Fibers, 3), 30);
    ASSERT_TRUE(fast.ok) << fast.fault->describe();
    ASSERT_TRUE(fibers.ok) << fibers.fault->describe();
    if (c.path.find("/assets/kernels/") != std::string::npos)
      EXPECT_EQ(fast.reply.value("path", ""), "fission") << fast.reply.value("fast_path_off", "");
    EXPECT_EQ(fibers.reply.value("path", ""), "fibers");
    ASSERT_FALSE(fast.read_back.empty());
    EXPECT_EQ(fast.read_back, fibers.read_back);
    EXPECT_EQ(fast.reply.value("printf", nlohmann::json::array()), fibers.reply.value("printf", nlohmann::json::array()));
    ++compared;
  }
  EXPECT_GE(compared, 15);
}

}  // namespace
}  // namespace cv::emu::app_test
