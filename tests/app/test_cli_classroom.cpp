// The classroom flags: --preset, --ui-scale, --present, and --scene given or not.
#include <gtest/gtest.h>

#include "cli.h"

using cv::parse_command_line;
using cv::UsageError;

static std::string usage_error(std::vector<std::string> a) {
  try {
    parse_command_line(a);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(CliClassroom, UiScaleAndPresent) {
  auto c = parse_command_line({"--ui-scale", "2", "--present", "--preset", "a.json"});
  EXPECT_FLOAT_EQ(*c.run.ui_scale, 2.f);
  EXPECT_TRUE(c.run.present);
  EXPECT_EQ(*c.run.preset, "a.json");
  c = parse_command_line({"--present", "--frames=3"});
  EXPECT_TRUE(c.run.present);
  EXPECT_FALSE(c.run.ui_scale);
  EXPECT_EQ(c.run.frames, 3);
  c = parse_command_line({"--ui-scale=1.25"});
  EXPECT_FLOAT_EQ(*c.run.ui_scale, 1.25f);
  EXPECT_FALSE(c.run.present);
}

TEST(CliClassroom, BadUiScaleNamesTheValueAndTheLimit) {
  EXPECT_NE(usage_error({"--ui-scale", "5"}).find("--ui-scale: 5 is out of range [1, 4]"),
            std::string::npos);
  EXPECT_NE(usage_error({"--ui-scale", "0.5"}).find("out of range [1, 4]"), std::string::npos);
  EXPECT_NE(usage_error({"--ui-scale", "big"}).find("'big' is not a number"), std::string::npos);
  EXPECT_NE(usage_error({"--ui-scale", "2x"}).find("not a number"), std::string::npos);
  EXPECT_NE(usage_error({"--ui-scale", "nan"}).find("not a number"), std::string::npos);
  EXPECT_NE(usage_error({"--ui-scale"}).find("needs a value"), std::string::npos);
  EXPECT_NE(usage_error({"--present=yes"}).find("takes no value"), std::string::npos);
  EXPECT_NE(usage_error({"--present", "--present"}).find("more than once"), std::string::npos);
}

TEST(CliClassroom, SceneGivenIsRecorded) {
  EXPECT_FALSE(parse_command_line({}).run.scene_given);
  EXPECT_TRUE(parse_command_line({"--scene", "fountain"}).run.scene_given);
}
