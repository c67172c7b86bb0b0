// The test-only dots scene (dots_scene.cpp) reaches every consumer of the
// scene registry without any of them being edited: the CLI and its usage
// text, the hotkeys and the help, presets, lessons, the memory check, the
// factory and, with a GL context, the kernel catalogue, the knobs and the
// rebuild hook. A consumer that lists scenes itself fails here.
#include <glad/gl.h>  // before GLFW
#include <GLFW/glfw3.h>
#include <gtest/gtest.h>

#include <string>

#include "cli.h"
#include "hidden_window.h"
#include "test_config.h"
#include "lessons/lesson.h"
#include "presets/knobs.h"
#include "presets/preset.h"
#include "scenes/scene_factory.h"
#include "scenes/scene_memory.h"
#include "scenes/scene_set.h"
#include "tuning/kernel_catalog.h"
#include "ui/hotkeys.h"
#include "ui/notes_text.h"
#include "ui/panels.h"
#include "ui/presentation.h"

using namespace cv;

namespace {

SceneKind dots() {
  const auto k = parse_scene("dots");
  if (!k) throw std::runtime_error("the dots scene is not registered");
  return *k;
}

std::string usage_error(const std::vector<std::string>& args) {
  try {
    parse_command_line(args);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

std::string request_error(SceneRequest r) {
  try {
    check_scene_request(dots(), Backend::Cpu, r);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(DotsScene, IsRegisteredAfterTheBuiltInScenes) {
  ASSERT_TRUE(parse_scene("dots"));
  EXPECT_EQ(scene_info(dots()).hotkey, 5);
  EXPECT_EQ(scene_names_text(), "fountain, swarm, nbody, pi, dots");
  EXPECT_EQ(scene_by_hotkey(5), dots());
  EXPECT_STREQ(notes::scene_notice(dots()), scene_info(dots()).notice);
}

TEST(DotsScene, TheCommandLineTakesItAndItsVariants) {
  EXPECT_EQ(parse_command_line({"--scene", "dots", "--variant", "spiral"}).run.scene, "dots");
  EXPECT_NE(usage_error({"--scene", "dotz"}).find("fountain, swarm, nbody, pi, dots"),
            std::string::npos);
  const std::string usage = usage_text();
  EXPECT_NE(usage.find("[--scene fountain|swarm|nbody|pi|dots]"), std::string::npos) << usage;
  EXPECT_NE(usage.find("dots (ring, spiral)"), std::string::npos) << usage;
  EXPECT_NE(usage.find("keys 1-5 switch scenes"), std::string::npos) << usage;
  // --n and --variant are checked against the descriptor, naming its range and variants.
  EXPECT_EQ(request_error({100, "spiral"}), "");
  std::string e = request_error({0, std::nullopt});
  EXPECT_NE(e.find("dots scene's range [1, 65536]"), std::string::npos) << e;
  e = request_error({std::nullopt, "square"});
  EXPECT_NE(e.find("(ring, spiral)"), std::string::npos) << e;
  EXPECT_EQ(device_bytes_per_element(dots(), std::nullopt), 16);
}

TEST(DotsScene, HasAKeyInTheHelpAndTheMenu) {
  const Hotkey* row = nullptr;
  for (const Hotkey& h : hotkeys())
    if (h.action == Action::Scene5) row = &h;
  ASSERT_TRUE(row);
  EXPECT_STREQ(row->keys, "5");
  EXPECT_STREQ(row->what, "dots (test)");
  ASSERT_FALSE(row->chords.empty());
  EXPECT_EQ(row->chords[0].key, GLFW_KEY_5);
  UiState ui;
  Presentation p;
  apply_action(Action::Scene5, ui, p);
  EXPECT_EQ(ui.requests.scene, dots());
  // The scene set has a slot for it.
  SceneSet set([](SceneKind) { return std::unique_ptr<ParticleScene>(); });
  EXPECT_FALSE(set.built(dots()));
}

TEST(DotsScene, PresetsReadAndWriteItsParams) {
  presets::Report r;
  const auto j = nlohmann::json::parse(R"({"version": 1, "scene": "dots",
      "scenes": {"dots": {"variant": "spiral", "count": 100, "block": [64],
                          "params": {"speed": 0.5, "frozen": true, "point_size": 3}}}})");
  const presets::Preset p = presets::parse_preset(j, r);
  EXPECT_TRUE(r.clean()) << (r.skipped().empty() ? "" : r.skipped()[0]);
  ASSERT_EQ(p.scene, dots());
  const presets::Scene& s = *p.scene_of(dots());
  EXPECT_EQ(*s.variant, "spiral");
  EXPECT_EQ(*s.count, 100);
  EXPECT_DOUBLE_EQ(s.params.at("speed"), 0.5);
  EXPECT_DOUBLE_EQ(s.params.at("frozen"), 1.0);
  // Written back under its name, params typed as the descriptor says.
  const auto out = presets::to_json(p);
  EXPECT_EQ(out["scene"], "dots");
  EXPECT_EQ(out["scenes"]["dots"]["params"]["frozen"], true);
  // Its ranges and variants are the descriptor's.
  presets::Report r2;
  presets::parse_preset(nlohmann::json::parse(
                            R"({"scenes": {"dots": {"variant": "square", "params": {"speed": 2}}}})"),
                        r2);
  ASSERT_EQ(r2.invalid.size(), 2u);
  EXPECT_NE(r2.invalid[0].find("scenes.dots.variant"), std::string::npos) << r2.invalid[0];
  EXPECT_NE(r2.invalid[1].find("scenes.dots.params.speed"), std::string::npos) << r2.invalid[1];
  EXPECT_NE(r2.invalid[1].find("[-1, 1]"), std::string::npos) << r2.invalid[1];
}

TEST(DotsScene, LessonsNameIt) {
  const std::string text = "# Dots\n\n## Step: turning\n\n```step\nscene: dots\nvariant: spiral\n"
                           "params.speed: 0.1\n```\n\nThey turn.\n";
  const lessons::Lesson l = lessons::parse_lesson(text, "dots.md", test_config().paths);
  ASSERT_EQ(l.steps.size(), 1u);
}

// With a GL context (the vertex buffer): built by the factory, stepped, and
// read through the hooks the panels and presets use.
TEST(DotsScene, BuildsStepsAndAnswersTheHooks) {
  HiddenWindow win("dots");
  if (!win.w) GTEST_SKIP() << "no display or GL context";
  std::unique_ptr<ParticleScene> scene = make_scene(dots(), Backend::Cpu, {100, "spiral"});
  ASSERT_TRUE(scene);
  EXPECT_EQ(scene->count(), 100u);
  EXPECT_EQ(scene->variant_name(), "spiral");
  scene->step();
  EXPECT_EQ(scene->steps(), 1);
  // The kernel catalogue (the occupancy panel) asks the scene.
  const auto pick = tuning::scene_kernel(*scene);
  ASSERT_TRUE(pick);
  EXPECT_EQ(pick->context, "dots, variant spiral");
  EXPECT_EQ(pick->attributes.name, "dots_kernel");
  // Presets' knobs: the descriptor's params bound to the scene's fields.
  const auto knobs = presets::knobs_of(*scene, dots());
  ASSERT_EQ(knobs.size(), 3u);
  EXPECT_STREQ(knobs[0].key, "speed");
  EXPECT_DOUBLE_EQ(knobs[0].max, 1.0);
  // The generic rebuild (presets, lessons, the soak).
  bool rebuilt = false;
  RebuildRequest r;
  r.count = 300;
  r.variant = "ring";
  EXPECT_EQ(scene->rebuild_for(r, &rebuilt), std::nullopt);
  EXPECT_TRUE(rebuilt);
  EXPECT_EQ(scene->count(), 300u);
  EXPECT_EQ(scene->variant_name(), "ring");
  r.count = 1u << 20;
  auto err = scene->rebuild_for(r, &rebuilt);
  ASSERT_TRUE(err);
  EXPECT_FALSE(rebuilt);
  EXPECT_EQ(scene->count(), 300u);  // kept
  EXPECT_FALSE(scene->access_kernel(scene->block()));  // not modelled: the memory view says so
}
