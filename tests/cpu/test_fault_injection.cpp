// CUDAVIZ_FAULT: parsing the spec, matching launch names, and firing exactly
// once on the chosen launch (kernels/common/fault_injection.h).
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "common/cuda_check.h"
#include "common/fault_injection.h"

using cv::FaultInjector;
using cv::FaultSpec;
using cv::parse_fault_spec;

static std::string spec_error(const std::string& text) {
  try {
    parse_fault_spec(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(FaultSpec, ParsesNameAndAfter) {
  EXPECT_FALSE(parse_fault_spec(""));
  auto s = parse_fault_spec("launch:*");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->pattern, "*");
  EXPECT_EQ(s->after, 0);
  s = parse_fault_spec("launch:nbody forces_tiled:after=12");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->pattern, "nbody forces_tiled");
  EXPECT_EQ(s->after, 12);
}

TEST(FaultSpec, RefusesMalformedSpecsNamingThePart) {
  EXPECT_NE(spec_error("kernel:*").find("only 'launch:'"), std::string::npos);
  EXPECT_NE(spec_error("launch:").find("no launch name"), std::string::npos);
  EXPECT_NE(spec_error("launch::after=3").find("no launch name"), std::string::npos);
  EXPECT_NE(spec_error("launch:*:after=").find("after="), std::string::npos);
  EXPECT_NE(spec_error("launch:*:after=-1").find("after=-1"), std::string::npos);
  EXPECT_NE(spec_error("launch:*:after=x").find("after=x"), std::string::npos);
  EXPECT_NE(spec_error("launch:*:after=9999999999999").find("9999999999999"), std::string::npos);
  EXPECT_NE(spec_error("launch:a:times=2").find("unknown option"), std::string::npos);
  // Every message shows the expected form.
  EXPECT_NE(spec_error("launch:").find("launch:<name or *>[:after=N]"), std::string::npos);
}

TEST(FaultSpec, MatchesSubstringsAndGlobs) {
  EXPECT_TRUE(cv::fault_pattern_matches("*", "fountain step_lean<<<>>>"));
  EXPECT_TRUE(cv::fault_pattern_matches("step_lean", "fountain step_lean<<<>>>"));
  EXPECT_TRUE(cv::fault_pattern_matches("cpu fountain", "cpu fountain step"));
  EXPECT_TRUE(cv::fault_pattern_matches("nbody*tiled*", "nbody forces_tiled<<<>>>"));
  EXPECT_FALSE(cv::fault_pattern_matches("nbody*seed*", "nbody forces_tiled<<<>>>"));
  EXPECT_FALSE(cv::fault_pattern_matches("swarm", "cpu fountain step"));
}

TEST(FaultInjector, FailsTheLaunchAfterNMatchesExactlyOnce) {
  FaultInjector f(FaultSpec{"fountain", 2});
  EXPECT_FALSE(f.should_fail("cpu swarm step"));  // not matching: not counted
  EXPECT_FALSE(f.should_fail("cpu fountain step"));
  EXPECT_FALSE(f.should_fail("cpu fountain step"));
  EXPECT_FALSE(f.should_fail("cpu swarm step"));
  EXPECT_TRUE(f.should_fail("cpu fountain step"));  // the third match
  for (int i = 0; i < 10; ++i) EXPECT_FALSE(f.should_fail("cpu fountain step"));
  FaultInjector off(std::nullopt);
  EXPECT_FALSE(off.armed());
  EXPECT_FALSE(off.should_fail("anything"));
}

TEST(FaultInjector, FiresOnceUnderConcurrentLaunches) {
  FaultInjector f(FaultSpec{"*", 100});
  std::atomic<int> fired{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 1000; ++i)
        if (f.should_fail("k")) ++fired;
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(fired.load(), 1);
}

// The process-wide injector behind cuda_check_launch and the CPU scene step:
// the error names the launch, says it was injected, and reads as a launch failure.
TEST(FaultInjector, InjectedLaunchReportsCudaErrorLaunchFailure) {
  cv::fault_injector().reset(FaultSpec{"cpu fountain", 1});
  EXPECT_NO_THROW(cv::inject_launch_fault("cpu fountain step"));
  EXPECT_NO_THROW(cv::inject_launch_fault("cpu swarm step"));
  try {
    cv::inject_launch_fault("cpu fountain step");
    ADD_FAILURE() << "the second fountain step should have failed";
  } catch (const cv::CudaError& e) {
    EXPECT_EQ(e.code(), cudaErrorLaunchFailure);
    const std::string msg = e.what();
    EXPECT_NE(msg.find("cpu fountain step [injected by CUDAVIZ_FAULT] failed"), std::string::npos)
        << msg;
    EXPECT_NE(msg.find("cudaErrorLaunchFailure"), std::string::npos) << msg;
  }
  EXPECT_NO_THROW(cv::inject_launch_fault("cpu fountain step"));  // once only
  cv::fault_injector().reset(std::nullopt);
}
