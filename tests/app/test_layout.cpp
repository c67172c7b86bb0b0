// The layout plan (ui/layout.h): side columns, the tool area and the tab strip
// never overlap and stay on the display, at every size and scale the app supports.
#include <gtest/gtest.h>

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
