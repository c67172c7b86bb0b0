// Frame pacing: fixed simulation steps from elapsed time, the cap on
// steps per frame, the fps cap's wait, and the --vsync / --fps-cap flags.
#include <gtest/gtest.h>

#include <cmath>

#include "cli.h"
#include "timing/frame_pacing.h"

using namespace cv::pacing;

namespace {
// Total steps over `frames` frames of `frame_s` seconds each.
int steps_over(int frames, double frame_s) {
  double pending = 0;
  int total = 0;
  for (int i = 0; i < frames; ++i) {
    const StepPlan p = plan_steps(pending, frame_s);
    total += p.steps;
    pending = p.pending;
  }
  return total;
}

std::string usage_error(std::vector<std::string> a) {
  try {
    cv::parse_command_line(a);
  } catch (const cv::UsageError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(FramePacing, OneSecondIsSixtyStepsAtAnyFrameRate) {
  // A fast display (240 Hz), the usual 60 Hz, a slow 20 fps and an odd 45 fps:
  // one second of wall time advances the simulation by the same 60 steps.
  EXPECT_EQ(steps_over(240, 1.0 / 240), 60);
  EXPECT_EQ(steps_over(60, 1.0 / 60), 60);
  EXPECT_EQ(steps_over(20, 1.0 / 20), 60);
  EXPECT_NEAR(steps_over(45, 1.0 / 45), 60, 1);
}

TEST(FramePacing, VsyncJitterSnapsToWholeSteps) {
  // 60 Hz frames measured a little short or long still run one step each.
  double pending = 0;
  for (double dt : {0.0166, 0.0168, 0.0165, 0.0169, 0.01667}) {
    const StepPlan p = plan_steps(pending, dt);
    EXPECT_EQ(p.steps, 1) << dt;
    pending = p.pending;
  }
}

TEST(FramePacing, SlowFramesAreCappedAndDropTimeInsteadOfSpiralling) {
  const StepPlan p = plan_steps(0, 1.0);  // a one-second hitch
  EXPECT_EQ(p.steps, kMaxStepsPerFrame);
  EXPECT_TRUE(p.dropped);
  EXPECT_EQ(p.pending, 0.0);
  const StepPlan q = plan_steps(0, 3.0 / 60);
  EXPECT_EQ(q.steps, 3);
  EXPECT_FALSE(q.dropped);
}

TEST(FramePacing, BadClockValuesRunNoSteps) {
  EXPECT_EQ(plan_steps(0, -1.0).steps, 0);
  EXPECT_EQ(plan_steps(0, std::nan("")).steps, 0);
  EXPECT_EQ(plan_steps(0, 0.001).steps, 0);
  EXPECT_NEAR(plan_steps(0, 0.001).pending, 0.001, 1e-12);
}

TEST(FramePacing, FpsCapWaitsTheRestOfTheFrame) {
  EXPECT_NEAR(cap_wait(10.0, 10.004, 100), 0.006, 1e-9);
  EXPECT_EQ(cap_wait(10.0, 10.02, 100), 0.0);  // a slow frame does not wait
  EXPECT_EQ(cap_wait(10.0, 10.0, 0), 0.0);     // no cap
}

TEST(FramePacing, FpsCapRange) {
  EXPECT_FALSE(check_fps_cap(0));
  EXPECT_FALSE(check_fps_cap(kMinFpsCap));
  EXPECT_FALSE(check_fps_cap(kMaxFpsCap));
  ASSERT_TRUE(check_fps_cap(5));
  EXPECT_NE(check_fps_cap(5)->find("10..1000"), std::string::npos);
}

TEST(FramePacing, VsyncAndFpsCapFlags) {
  auto c = cv::parse_command_line({"--vsync", "off", "--fps-cap", "30"});
  EXPECT_EQ(c.run.vsync, false);
  EXPECT_EQ(c.run.fps_cap, 30);
  EXPECT_EQ(cv::parse_command_line({"--vsync=on"}).run.vsync, true);
  EXPECT_FALSE(cv::parse_command_line({}).run.vsync.has_value());
  EXPECT_NE(usage_error({"--vsync", "maybe"}).find("'maybe' is not one of on, off"),
            std::string::npos);
  // The message names the value and the limit.
  EXPECT_NE(usage_error({"--fps-cap", "5"}).find("fps cap 5 is out of range: 0 (off) or 10..1000"),
            std::string::npos);
  EXPECT_NE(usage_error({"--fps-cap", "5000"}).find("5000 is out of range [0, 1000]"),
            std::string::npos);
  EXPECT_NE(usage_error({"--fps-cap", "fast"}).find("'fast' is not a whole number"),
            std::string::npos);
}

#include "presets/preset.h"

TEST(FramePacing, PresetsCarryVsyncAndFpsCap) {
  cv::presets::Report r;
  const auto p = cv::presets::parse_preset(
      nlohmann::json::parse(R"({"version":1,"ui":{"vsync":false,"fps_cap":30}})"), r);
  EXPECT_TRUE(r.clean());
  EXPECT_EQ(p.ui.vsync, false);
  EXPECT_EQ(p.ui.fps_cap, 30);
  const auto j = cv::presets::to_json(p);
  EXPECT_EQ(j["ui"]["fps_cap"], 30);
  EXPECT_EQ(j["ui"]["vsync"], false);
  // A cap below the range is refused by name, with the limits, and not applied.
  cv::presets::Report bad;
  const auto q =
      cv::presets::parse_preset(nlohmann::json::parse(R"({"version":1,"ui":{"fps_cap":5}})"), bad);
  ASSERT_EQ(bad.invalid.size(), 1u);
  EXPECT_NE(bad.invalid[0].find("ui.fps_cap: fps cap 5 is out of range: 0 (off) or 10..1000"),
            std::string::npos);
  EXPECT_FALSE(q.ui.fps_cap.has_value());
}
