// The plots' history and the rates shown beside them: a rate is the median of
// the last few frames, so it follows a change of block yet one slow frame
// (a loaded machine, a compile beside it) does not make it jump.
#include <gtest/gtest.h>

#include "timing/frame_timers.h"

namespace cv {
namespace {

TEST(History, RecentMedianIgnoresOneSlowFrame) {
  History h(8);
  EXPECT_EQ(h.recent_median(5), 0.f);  // nothing yet
  for (float v : {1.f, 1.f, 1.f, 1.f, 50.f}) h.push(v);
  EXPECT_EQ(h.latest(), 50.f);
  EXPECT_EQ(h.recent_median(5), 1.f);
}

TEST(History, RecentMedianFollowsAChangeAcrossTheRingsWrap) {
  History h(8);
  for (int i = 0; i < 10; ++i) h.push(4.f);  // wrapped
  for (int i = 0; i < 3; ++i) h.push(2.f);   // the block changed: the kernel got faster
  EXPECT_EQ(h.median(), 4.f);                // the whole history still says 4
  EXPECT_EQ(h.recent_median(5), 2.f);        // the last five: three 2s, two 4s
  EXPECT_EQ(h.recent_median(2), 2.f);
  EXPECT_EQ(h.recent_median(100), 4.f);      // more than it holds: the whole ring
}

TEST(History, RecentMedianOfFewerValuesThanAsked) {
  History h(8);
  h.push(3.f);
  h.push(9.f);
  h.push(6.f);
  EXPECT_EQ(h.recent_median(15), 6.f);
  h.clear();
  EXPECT_EQ(h.recent_median(15), 0.f);
}

}  // namespace
}  // namespace cv
