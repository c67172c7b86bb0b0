// Colour by launch on the command line and in presets, and the --panel names
// of the views inside the kernel.
#include <gtest/gtest.h>

#include "cli.h"
#include "insight/insight_ui.h"
#include "insight/launch_model.h"
#include "presets/preset.h"

using namespace cv;

TEST(InsightFlags, ColourByParsesEverySpellingAndRefusesOthers) {
  for (const char* name : {"normal", "block", "warp", "thread", "sm"}) {
    const Command c = parse_command_line({"--colour-by", name});
    ASSERT_TRUE(c.run.colour_by);
    EXPECT_EQ(*c.run.colour_by, name);
    EXPECT_STREQ(insight::to_string(*insight::parse_colour_by(name)), name);
  }
  EXPECT_THROW(parse_command_line({"--colour-by", "lane"}), UsageError);
  EXPECT_FALSE(insight::parse_colour_by("Block"));
}

TEST(InsightFlags, PanelNamesOpenTheViews) {
  const Command c =
      parse_command_line({"--panel", "launch,memory,reduction,race,occupancy-curve,device"});
  ASSERT_EQ(c.run.panels.size(), 6u);
  insight_ui::InsightUi views(Backend::Cpu);
  for (const std::string& name : insight_ui::InsightUi::panel_names())
    EXPECT_FALSE(views.open_panel(name)) << name;
  EXPECT_TRUE(views.open_panel("device"));  // a tuning window, not one of these
  EXPECT_THROW(parse_command_line({"--panel", "xray"}), UsageError);
}

TEST(InsightFlags, PresetColourByRoundTripsAndBadValuesAreListed) {
  presets::Report r;
  const auto p = presets::parse_preset(
      nlohmann::json::parse(R"({"version": 1, "ui": {"colour_by": "warp"}})"), r);
  EXPECT_TRUE(r.clean());
  ASSERT_TRUE(p.ui.colour_by);
  EXPECT_EQ(*p.ui.colour_by, "warp");
  EXPECT_EQ(presets::to_json(p)["ui"]["colour_by"], "warp");
  presets::Report bad;
  const auto q = presets::parse_preset(
      nlohmann::json::parse(R"({"version": 1, "ui": {"colour_by": "plaid"}})"), bad);
  EXPECT_FALSE(q.ui.colour_by);
  ASSERT_EQ(bad.invalid.size(), 1u);
  EXPECT_NE(bad.invalid[0].find("ui.colour_by"), std::string::npos);
}
