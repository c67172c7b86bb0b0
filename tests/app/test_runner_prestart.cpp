// The first compile as fast as the rest (usercode/client/runner_prestart.h):
// UserKernel::prestart() starts the runner process before the first submit,
// and that same process serves the first run. No timings asserted here; the
// window run's summary reports them (first_edit_to_run_ms, runner_prestart_ms).
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "usercode/client/runner_client.h"
#include "usercode/client/user_kernel.h"
#include "usercode/compile/compile.h"
#include "usercode/templates/template_registry.h"
#include "test_config.h"

namespace cv::usercode {
namespace {

class RunnerPrestartTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (find_host_compiler(test_config().paths).empty()) GTEST_SKIP() << "no host C++ compiler";
    std::string why;
    if (find_runner(test_config().paths.runner, &why).empty()) GTEST_FAIL() << why;
  }
  static UserKernelOptions options() {
    UserKernelOptions o;
    o.backend = Backend::Cpu;
    o.paths = test_config().paths;
    return o;
  }
};

TEST_F(RunnerPrestartTest, TheRunnerIsUpBeforeTheFirstSubmitAndServesIt) {
  UserKernel uk(options());
  EXPECT_EQ(uk.runner(), nullptr);  // constructing starts nothing
  uk.prestart();
  uk.wait_prestarted();
  ASSERT_NE(uk.runner(), nullptr);
  EXPECT_EQ(uk.prestart_error(), "");
  ASSERT_TRUE(uk.runner()->running());
  ASSERT_TRUE(uk.prestart_ms().has_value());
  EXPECT_EQ(uk.runner()->hello().value("backend", ""), "cpu");
  const long pid = uk.runner()->pid();
  EXPECT_GT(pid, 0);
  uk.prestart();  // at most once: no second process
  uk.wait_prestarted();
  EXPECT_EQ(uk.runner()->pid(), pid);

  uk.submit(read_template_source(*find_template("fountain_particle"), test_config().paths));
  for (int i = 0; i < 3000 && uk.status().state == UserKernelState::Compiling; ++i) {
    uk.poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ASSERT_EQ(uk.status().state, UserKernelState::Ready) << uk.status().fallback;
  Workload w;
  w.n = 1000;
  w.block = {16, 16, 1};
  w.reset = true;
  const LaunchOutcome step = uk.launch(w);
  ASSERT_TRUE(step.ok) << step.fault->describe();
  EXPECT_EQ(uk.runner()->pid(), pid);  // the prestarted process ran it
  EXPECT_GT(uk.status().first_edit_to_run_ms, 0);
  EXPECT_EQ(uk.status().first_edit_to_run_ms, uk.status().edit_to_run_ms);
}

TEST_F(RunnerPrestartTest, ARunnerThatCannotStartIsSaidAndNothingRuns) {
  UserKernelOptions o = options();
  o.runner_path = "/nonexistent/cudaviz-runner";
  UserKernel uk(o);
  uk.prestart();
  uk.wait_prestarted();
  ASSERT_NE(uk.runner(), nullptr);
  EXPECT_FALSE(uk.runner()->running());
  EXPECT_NE(uk.prestart_error().find("/nonexistent/cudaviz-runner"), std::string::npos) << uk.prestart_error();
  EXPECT_TRUE(uk.prestart_ms().has_value());
}

TEST_F(RunnerPrestartTest, DestroyedWhileStartingJoinsCleanly) {
  UserKernel uk(options());
  uk.prestart();  // the destructor joins the starting thread before the runner goes
}

}  // namespace
}  // namespace cv::usercode
