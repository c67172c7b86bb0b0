// The shared rebuild behind every scene's reconfigure() (scenes/rebuild.h):
// a build that fails changes nothing, a start that fails puts the old parts
// and settings back, and either way the reason names what was being set up.
#include <gtest/gtest.h>

#include <memory>
#include <new>
#include <stdexcept>
#include <string>

#include "scenes/rebuild.h"

using cv::keep;
using cv::RebuildSteps;
using cv::run_rebuild;

namespace {

// A scene's parts and settings in miniature.
struct Scene {
  std::unique_ptr<int> part = std::make_unique<int>(1);
  unsigned count = 10;
  long long steps = 7;
};

// The steps every reconfigure() hands over: build a part aside, swap it in,
// set the count, start (which resets the steps).
RebuildSteps steps_for(Scene& s, std::unique_ptr<int>& next, unsigned count, bool fail_build,
                       bool fail_start, int& starts) {
  return {[&next, fail_build] {
            if (fail_build) throw std::bad_alloc();
            next = std::make_unique<int>(2);
          },
          [&s, &next] { std::swap(s.part, next); },
          [&s, count] { s.count = count; },
          [&s, fail_start, &starts] {
            ++starts;
            s.steps = 0;
            if (fail_start) throw std::runtime_error("cudaMalloc: cudaErrorMemoryAllocation");
          },
          keep(s.count, s.steps)};
}

}  // namespace

TEST(Rebuild, SuccessSwapsInTheNewPartsAndSettings) {
  Scene s;
  std::unique_ptr<int> next;
  int starts = 0;
  const auto err = run_rebuild("20 particles", steps_for(s, next, 20, false, false, starts));
  EXPECT_EQ(err, std::nullopt);
  ASSERT_TRUE(s.part);
  EXPECT_EQ(*s.part, 2);
  EXPECT_EQ(s.count, 20u);
  EXPECT_EQ(s.steps, 0);
  EXPECT_EQ(starts, 1);
  ASSERT_TRUE(next);  // the old part is handed back to the caller, to be freed there
  EXPECT_EQ(*next, 1);
}

TEST(Rebuild, AFailedBuildChangesNothingAndSaysWhy) {
  Scene s;
  std::unique_ptr<int> next;
  int starts = 0;
  const auto err = run_rebuild("1048576 particles", steps_for(s, next, 1u << 20, true, false, starts));
  ASSERT_TRUE(err);
  EXPECT_EQ(*err, "not enough host memory for 1048576 particles");
  EXPECT_EQ(*s.part, 1);
  EXPECT_EQ(s.count, 10u);
  EXPECT_EQ(s.steps, 7);
  EXPECT_EQ(starts, 0) << "nothing may start after a failed build";
}

TEST(Rebuild, AFailedStartPutsTheOldPartsAndSettingsBack) {
  Scene s;
  std::unique_ptr<int> next;
  int starts = 0;
  const auto err = run_rebuild("20 bodies", steps_for(s, next, 20, false, true, starts));
  ASSERT_TRUE(err);
  EXPECT_EQ(*err, "cannot set up 20 bodies: cudaMalloc: cudaErrorMemoryAllocation");
  EXPECT_EQ(starts, 1);
  EXPECT_EQ(*s.part, 1) << "the previous part is back";
  ASSERT_TRUE(next);
  EXPECT_EQ(*next, 2) << "the new one is handed back, to be freed";
  EXPECT_EQ(s.count, 10u);
  EXPECT_EQ(s.steps, 7) << "the settings the start changed come back too";
}

TEST(Rebuild, KeepRestoresEveryValueItSaw) {
  unsigned a = 1;
  std::string b = "lean";
  double c = 0.5;
  const auto restore = keep(a, b, c);
  a = 2, b = "seed", c = 9;
  restore();
  EXPECT_EQ(a, 1u);
  EXPECT_EQ(b, "lean");
  EXPECT_EQ(c, 0.5);
}
