// Presets carry the student's kernel with its source embedded.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "presets/preset.h"
#include "usercode/compile/compile.h"

namespace cv::presets {
namespace {

TEST(UsercodePreset, KernelRoundTripsWithItsSource) {
  const std::string src = "// template: count3\nextern \"C\" __global__ void count3() {}\n";
  const nlohmann::json j = {{"version", 1},
                            {"kernel", {{"template", "count3"}, {"source", src}, {"file", "mine.cu"}, {"checked", true}}}};
  Report r;
  const Preset p = parse_preset(j, r);
  EXPECT_TRUE(r.clean());
  ASSERT_TRUE(p.kernel);
  EXPECT_EQ(p.kernel->source, src);
  EXPECT_EQ(p.kernel->template_name, "count3");
  EXPECT_EQ(p.kernel->file, "mine.cu");
  EXPECT_EQ(p.kernel->checked, true);
  Report r2;
  const Preset back = parse_preset(nlohmann::json::parse(to_json(p).dump()), r2);
  EXPECT_TRUE(r2.clean());
  ASSERT_TRUE(back.kernel);
  EXPECT_EQ(back.kernel->source, src);
}

TEST(UsercodePreset, BadKernelFieldsAreNamedByPath) {
  Report r;
  parse_preset(nlohmann::json{{"kernel", {{"template", "teapot"}, {"source", "x"}}}}, r);
  ASSERT_EQ(r.invalid.size(), 1u);
  EXPECT_NE(r.invalid[0].find("kernel.template"), std::string::npos) << r.invalid[0];
  Report big;
  const Preset p = parse_preset(
      nlohmann::json{{"kernel", {{"source", std::string(usercode::kMaxSourceBytes + 1, 'x')}}}}, big);
  EXPECT_FALSE(p.kernel);
  ASSERT_EQ(big.invalid.size(), 1u);
  EXPECT_NE(big.invalid[0].find("kernel.source"), std::string::npos);
  Report none;
  parse_preset(nlohmann::json{{"kernel", {{"template", "pi"}}}}, none);
  EXPECT_EQ(none.invalid.size(), 1u);
}

}  // namespace
}  // namespace cv::presets
