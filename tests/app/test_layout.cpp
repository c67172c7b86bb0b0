// The layout plan (ui/layout.h): side columns, the tool area and the tab strip
// never overlap and stay on the display, at every size and scale the app supports.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "ui/layout.h"

using cv::ui::LayoutInput;
using cv::ui::plan_layout;
using cv::ui::Rect;

namespace {
bool inside(const Rect& r, float w, float h) {
  return r.x >= 0 && r.y >= 0 && r.x + r.w <= w + 0.01f && r.y + r.h <= h + 0.01f;
}
}  // namespace

TEST(Layout, RectOverlap) {
  EXPECT_TRUE((Rect{0, 0, 10, 10}.overlaps(Rect{5, 5, 10, 10})));
  EXPECT_FALSE((Rect{0, 0, 10, 10}.overlaps(Rect{10, 0, 10, 10})));  // touching is fine
  EXPECT_FALSE((Rect{0, 0, 10, 10}.overlaps(Rect{0, 20, 10, 10})));
}

TEST(Layout, PanelsNeverOverlapAtAnySizeOrScale) {
  const float sizes[][2] = {{1280, 720}, {1280, 800}, {1920, 1080}, {2560, 1440}, {3840, 2160}};
  for (const auto& s : sizes)
    for (float scale : {1.f, 1.5f, 2.f, 3.f})
      for (bool tool : {false, true})
        for (float wanted : {0.f, 200.f, 5000.f}) {
          LayoutInput in;
          in.width = s[0];
          in.height = s[1];
          in.font = 13 * scale;
          in.margin = 8 * scale;
          in.strip_h = 2 * 20 * scale;
          in.tool_open = tool;
          in.tool_wanted_h = in.control_wanted_h = in.timing_wanted_h = wanted;
          const auto p = plan_layout(in);
          std::vector<Rect> rs{p.control, p.timing, p.strip};
          if (tool) rs.push_back(p.tool);
          for (size_t i = 0; i < rs.size(); ++i) {
            EXPECT_TRUE(inside(rs[i], in.width, in.height)) << s[0] << "x" << s[1] << " " << scale;
            for (size_t j = i + 1; j < rs.size(); ++j)
              EXPECT_FALSE(rs[i].overlaps(rs[j]))
                  << s[0] << "x" << s[1] << " scale " << scale << " panels " << i << "," << j;
          }
        }
}

TEST(Layout, PanelsAreAsTallAsTheirContentWhenThereIsRoom) {
  LayoutInput in;
  in.width = 1920;
  in.height = 1080;
  in.strip_h = 40;
  in.control_wanted_h = 300;
  in.timing_wanted_h = 5000;  // more than fits: capped at the room above the strip
  const auto p = plan_layout(in);
  EXPECT_EQ(p.control.h, 300);
  EXPECT_LT(p.timing.y + p.timing.h, p.strip.y);
  EXPECT_GT(p.timing.h, 900);
  EXPECT_EQ(p.control.w, 28 * in.font);  // the column width follows the font (UI scale)
}

// The scene's rectangle (issue 21): the room the panels leave, never under a panel.
namespace {
LayoutInput typical(float w, float h, float scale, bool tool) {
  LayoutInput in;
  in.width = w;
  in.height = h;
  in.font = 13 * scale;
  in.margin = 8 * scale;
  in.strip_h = 2 * 20 * scale;
  in.tool_open = tool;
  in.tool_wanted_h = 300 * scale;
  in.control_wanted_h = 740 * scale;  // about what the fountain's panel measures
  in.timing_wanted_h = 330 * scale;
  return in;
}
}  // namespace

TEST(Layout, SceneFillsTheRoomBetweenThePanels) {
  const auto p = plan_layout(typical(1920, 1080, 1, false));
  EXPECT_FLOAT_EQ(p.scene.x, p.control.x + p.control.w);  // from the scene panel...
  EXPECT_FLOAT_EQ(p.scene.x + p.scene.w, p.timing.x);     // ...to the timing panel
  EXPECT_FLOAT_EQ(p.scene.y, 0);
  EXPECT_FLOAT_EQ(p.scene.y + p.scene.h, p.strip.y);  // down to the tab strip
  EXPECT_GT(p.scene.w, 1100);
}

TEST(Layout, SceneMovesAboveAnOpenTool) {
  const auto closed = plan_layout(typical(1920, 1080, 1, false));
  const auto open = plan_layout(typical(1920, 1080, 1, true));
  EXPECT_FLOAT_EQ(open.scene.y + open.scene.h, open.tool.y);  // down to the tool, not under it
  EXPECT_FLOAT_EQ(open.scene.x, closed.scene.x);
  EXPECT_LT(open.scene.h, closed.scene.h);
}

TEST(Layout, SceneNeverUnderAPanelAtAnySizeOrScale) {
  const float sizes[][2] = {{1280, 720}, {1280, 800}, {1920, 1080}, {2560, 1440}, {3840, 2160}};
  int fallbacks = 0;
  for (const auto& s : sizes)
    for (float scale : {1.f, 1.5f, 2.f, 3.f})
      for (bool tool : {false, true}) {
        const auto p = plan_layout(typical(s[0], s[1], scale, tool));
        const std::string at = std::to_string(int(s[0])) + "x" + std::to_string(int(s[1])) +
                               " scale " + std::to_string(scale) + (tool ? " tool" : "");
        EXPECT_TRUE(inside(p.scene, s[0], s[1])) << at;
        EXPECT_GT(p.scene.w, 0) << at;
        EXPECT_GT(p.scene.h, 0) << at;
        // Never under the strip or the tool; under a side column only in the
        // fallback, where the room between them is too small to show anything.
        EXPECT_FALSE(p.scene.overlaps(p.strip)) << at;
        if (tool) EXPECT_FALSE(p.scene.overlaps(p.tool)) << at;
        const bool fallback = p.scene.overlaps(p.control) || p.scene.overlaps(p.timing);
        if (fallback) {
          ++fallbacks;
          EXPECT_FLOAT_EQ(p.scene.w, s[0]) << at;
        } else {
          EXPECT_GE(std::min(p.scene.w, p.scene.h), 0.25f * std::min(s[0], s[1])) << at;
        }
      }
  EXPECT_GT(fallbacks, 0);  // UI scale 3 at 1280x720 leaves no room between the columns
  EXPECT_LT(fallbacks, 20);
}

TEST(Layout, FreeRectTakesTheLongestShorterSide) {
  // One panel down the left third: the free part is the right two thirds.
  const Rect r = cv::ui::free_rect(900, 600, {Rect{0, 0, 300, 600}});
  EXPECT_FLOAT_EQ(r.x, 300);
  EXPECT_FLOAT_EQ(r.w, 600);
  EXPECT_FLOAT_EQ(r.h, 600);
  // A short panel top left: the room beside it (600 x 600) beats the room below it (900 x 500).
  const Rect s = cv::ui::free_rect(900, 600, {Rect{0, 0, 300, 100}});
  EXPECT_FLOAT_EQ(s.x, 300);
  EXPECT_FLOAT_EQ(s.h, 600);
  // No panels: the whole display.
  const Rect all = cv::ui::free_rect(900, 600, {});
  EXPECT_FLOAT_EQ(all.w * all.h, 900 * 600);
}
