// Presets without a window: the JSON format's round trip, files from older and
// newer versions, unknown keys, wrong types and missing fields, the command
// line on top of a preset, and every preset shipped in assets/presets.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "cli.h"
#include "io/atomic_file.h"
#include "ui/lab_panel.h"
#include "presets/knobs.h"
#include "presets/preset.h"
#include "presets/preset_panel.h"
#include "scenes/fountain_scene.h"
#include "test_config.h"

using namespace cv;
using namespace cv::presets;
using nlohmann::json;

namespace {

Preset parse(const std::string& text, Report& r) {
  return parse_preset(json::parse(text), r);
}

bool mentions(const std::vector<std::string>& lines, const std::string& what) {
  for (const auto& l : lines)
    if (l.find(what) != std::string::npos) return true;
  return false;
}

std::string dump(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += "  " + l + "\n";
  return s;
}

// A full preset as the app would save it.
Preset sample() {
  Preset p;
  p.description = "round trip";
  p.scene = *parse_scene("nbody");
  p.ui.scale = 2.5f;
  p.ui.high_contrast = true;
  p.ui.panels_hidden = false;
  p.ui.paused = true;
  Scene f;
  f.variant = "original";
  f.count = 4096;
  f.block = BlockShape{32, 8, 1};
  f.params = {{"gravity", 2e-4}, {"bounce", 0.5}, {"point_size", 12}};
  f.camera = Camera{glm::vec3(0.f, 1.5f, -2.f), 7.5f, 1.25f, -0.5f};
  p.scene_of(*parse_scene("fountain")) = f;
  Scene n;
  n.variant = "tiled";
  n.choices["initial"] = "disk";
  n.choices["fast_build"] = "pairs8";
  n.count = 1024;
  n.block = BlockShape{128, 1, 1};
  n.params = {{"dt", 0.004}, {"softening", 0.05}, {"steps_per_frame", 3}, {"energy_every", 0}};
  p.scene_of(*parse_scene("nbody")) = n;
  Scene s;
  s.params = {{"follow_mouse", 1.0}, {"drag", 0.01}};
  p.scene_of(*parse_scene("swarm")) = s;
  Lab l;
  l.name = "sum3";
  l.variant = "shared";
  l.n = std::optional<long long>(1200);
  l.block = std::optional<BlockShape>(BlockShape{16, 32, 1});
  l.input = "";
  l.reps = 5;
  l.cpu_backend = false;
  l.open = true;
  l.run = "none";
  p.lab = l;
  Sweep sw;
  sw.target = "fountain";
  sw.variant = "original";
  sw.n = 65536;
  sw.shapes = {{1, 1, 1}, {16, 16, 1}, {256, 1, 1}};
  p.sweep = sw;
  return p;
}

std::string temp_dir() {
  auto d =
      std::filesystem::temp_directory_path() / ("cudaviz_presets_" + std::to_string(::getpid()));
  std::filesystem::create_directories(d);
  return d.string();
}

}  // namespace

TEST(Presets, RoundTripKeepsEveryField) {
  const Preset p = sample();
  Report r;
  const Preset q = parse_preset(json::parse(to_json(p).dump()), r);
  EXPECT_TRUE(r.clean()) << dump(r.skipped());
  EXPECT_TRUE(r.notes.empty()) << dump(r.notes);
  EXPECT_EQ(q.description, "round trip");
  EXPECT_EQ(q.scene, *parse_scene("nbody"));
  EXPECT_FLOAT_EQ(*q.ui.scale, 2.5f);
  EXPECT_TRUE(*q.ui.high_contrast);
  EXPECT_FALSE(*q.ui.panels_hidden);
  EXPECT_TRUE(*q.ui.paused);
  const Scene& f = *q.scene_of(*parse_scene("fountain"));
  EXPECT_EQ(*f.variant, "original");
  EXPECT_EQ(*f.count, 4096);
  EXPECT_EQ(*f.block, (BlockShape{32, 8, 1}));
  // Saved as the shortest decimal of the float the slider held.
  EXPECT_DOUBLE_EQ(f.params.at("gravity"), 2e-4);
  EXPECT_DOUBLE_EQ(f.params.at("bounce"), 0.5);
  EXPECT_EQ(*f.camera->target, glm::vec3(0.f, 1.5f, -2.f));
  EXPECT_FLOAT_EQ(*f.camera->distance, 7.5f);
  EXPECT_FLOAT_EQ(*f.camera->pitch, -0.5f);
  const Scene& n = *q.scene_of(*parse_scene("nbody"));
  EXPECT_EQ(n.choices.at("initial"), "disk");
  EXPECT_EQ(n.choices.at("fast_build"), "pairs8");
  EXPECT_EQ(*n.block, (BlockShape{128, 1, 1}));
  EXPECT_EQ(n.params.at("steps_per_frame"), 3);
  EXPECT_EQ(q.scene_of(*parse_scene("swarm"))->params.at("follow_mouse"), 1.0);
  EXPECT_FALSE(q.scene_of(*parse_scene("pi")).has_value());
  ASSERT_TRUE(q.lab);
  EXPECT_EQ(*q.lab->name, "sum3");
  EXPECT_EQ(**q.lab->n, 1200);
  EXPECT_EQ(**q.lab->block, (BlockShape{16, 32, 1}));
  EXPECT_EQ(*q.lab->reps, 5);
  ASSERT_TRUE(q.sweep);
  EXPECT_EQ(q.sweep->shapes.size(), 3u);
  // And the second trip writes the same text.
  EXPECT_EQ(to_json(q).dump(), to_json(p).dump());
}

TEST(Presets, SavedFloatsReadNaturally) {
  Preset p;
  Scene f;
  f.params = {{"gravity", static_cast<double>(1e-4f)}};
  p.scene_of(*parse_scene("fountain")) = f;
  const std::string text = to_json(p).dump();
  EXPECT_NE(text.find("\"gravity\":0.0001"), std::string::npos) << text;
  EXPECT_NE(text.find("\"version\":1"), std::string::npos) << text;
}

TEST(Presets, FileRoundTripIsAtomicAndReadable) {
  const std::string path = temp_dir() + "/p.json";
  save_preset_file(path, sample());
  Report r;
  const Preset q = load_preset_file(path, r);
  EXPECT_TRUE(r.clean()) << dump(r.skipped());
  EXPECT_EQ(*q.scene_of(*parse_scene("fountain"))->count, 4096);
  // Only the file itself is left in the directory: no temporary.
  int files = 0;
  for (const auto& e :
       std::filesystem::directory_iterator(std::filesystem::path(path).parent_path()))
    files += e.path().filename() != "p.json";
  EXPECT_EQ(files, 0);
  std::filesystem::remove_all(std::filesystem::path(path).parent_path());
}

TEST(Presets, NewerVersionLoadsWhatItKnowsAndListsUnknownKeys) {
  Report r;
  const Preset p = parse(R"({
    "version": 7, "scene": "swarm", "hologram": {"on": true},
    "ui": {"scale": 1.5, "vr_mode": true},
    "scenes": {"swarm": {"variant": "sparkler", "wind": 3, "params": {"drag": 0.02, "curl": 1}},
               "galaxy_zoo": {}}})",
                         r);
  EXPECT_EQ(p.scene, *parse_scene("swarm"));
  EXPECT_FLOAT_EQ(*p.ui.scale, 1.5f);
  EXPECT_EQ(*p.scene_of(*parse_scene("swarm"))->variant, "sparkler");
  EXPECT_DOUBLE_EQ(p.scene_of(*parse_scene("swarm"))->params.at("drag"), 0.02);
  EXPECT_TRUE(r.invalid.empty()) << dump(r.invalid);
  EXPECT_EQ(r.unknown.size(), 5u) << dump(r.unknown);
  for (const char* path : {"hologram", "ui.vr_mode", "scenes.swarm.wind",
                           "scenes.swarm.params.curl", "scenes.galaxy_zoo"})
    EXPECT_TRUE(mentions(r.unknown, std::string(path) + ": unknown key"))
        << path << dump(r.unknown);
  EXPECT_TRUE(mentions(r.notes, "newer")) << dump(r.notes);
}

TEST(Presets, UnversionedFilesLoadWithANote) {
  // Version 1 is the first; a file without "version" (hand-written) reads as it.
  Report r2;
  Preset p = parse(R"({"scene": "nbody"})", r2);
  EXPECT_EQ(p.scene, *parse_scene("nbody"));
  EXPECT_TRUE(r2.clean());
  EXPECT_TRUE(mentions(r2.notes, "no \"version\"")) << dump(r2.notes);
}

TEST(Presets, WrongTypesAreSkippedByPathAndTheRestLoads) {
  Report r;
  const Preset p = parse(R"({
    "version": "one", "description": 42, "scene": 3,
    "ui": {"scale": "big", "high_contrast": "yes", "paused": false},
    "scenes": {
      "fountain": {"variant": 1, "count": "many", "block": "16 by 16",
                   "params": {"gravity": "strong", "bounce": 0.3, "point_size": null},
                   "camera": {"target": [0, "up", 0], "distance": 4}},
      "swarm": [1, 2, 3],
      "nbody": {"block": [256], "params": {"steps_per_frame": 2.5, "energy_every": true}}},
    "lab": {"name": "sum3", "n": -5, "reps": "lots", "open": 1},
    "sweep": {"target": "fountain", "shapes": ["8x8", 7, "2048x1"]}})",
                         r);
  EXPECT_TRUE(r.unknown.empty()) << dump(r.unknown);
  for (const char* path :
       {"version:", "description:", "scene:", "ui.scale:", "ui.high_contrast:",
        "scenes.fountain.variant:", "scenes.fountain.count:", "scenes.fountain.block:",
        "scenes.fountain.params.gravity:", "scenes.fountain.params.point_size:",
        "scenes.fountain.camera.target[1]:", "scenes.swarm:",
        "scenes.nbody.params.steps_per_frame:", "scenes.nbody.params.energy_every:", "lab.n:",
        "lab.reps:", "lab.open:", "sweep.shapes[1]:", "sweep.shapes[2]:"})
    EXPECT_TRUE(mentions(r.invalid, path)) << path << "\n" << dump(r.invalid);
  // What was right still loads.
  EXPECT_FALSE(*p.ui.paused);
  const Scene& f = *p.scene_of(*parse_scene("fountain"));
  EXPECT_DOUBLE_EQ(f.params.at("bounce"), 0.3);
  EXPECT_FALSE(f.params.count("gravity"));
  EXPECT_FALSE(f.count);
  EXPECT_FLOAT_EQ(*f.camera->distance, 4.f);
  EXPECT_FALSE(f.camera->target);
  EXPECT_FALSE(p.scene_of(*parse_scene("swarm")));
  EXPECT_EQ(*p.scene_of(*parse_scene("nbody"))->block, (BlockShape{256, 1, 1}));
  EXPECT_EQ(*p.lab->name, "sum3");
  EXPECT_EQ(p.sweep->shapes.size(), 1u);
  // Messages say what was expected and what came.
  EXPECT_TRUE(mentions(r.invalid, "scenes.fountain.count: expected a whole number, got string"))
      << dump(r.invalid);
}

TEST(Presets, OutOfRangeValuesNameTheLimit) {
  Report r;
  parse(R"({"ui": {"scale": 9},
            "scenes": {"fountain": {"params": {"bounce": 1.5}, "block": [2048, 1]},
                       "nbody": {"count": 1, "variant": "warp"}},
            "lab": {"name": "tetris"}})",
        r);
  EXPECT_TRUE(mentions(r.invalid, "ui.scale: 9 is outside [1, 4]")) << dump(r.invalid);
  EXPECT_TRUE(mentions(r.invalid, "scenes.fountain.params.bounce: 1.5 is outside [0, 1]"))
      << dump(r.invalid);
  EXPECT_TRUE(mentions(r.invalid, "scenes.fountain.block[0]")) << dump(r.invalid);
  EXPECT_TRUE(mentions(r.invalid, "scenes.nbody.count: 1 is outside [2,")) << dump(r.invalid);
  EXPECT_TRUE(mentions(r.invalid, "scenes.nbody.variant: 'warp' is not one of original, tiled, fast"))
      << dump(r.invalid);
  EXPECT_TRUE(mentions(r.invalid, "lab.name: 'tetris' is not one of")) << dump(r.invalid);
}

TEST(Presets, MissingFieldsAreSimplyAbsent) {
  Report r;
  const Preset p = parse(R"({"version": 1, "scenes": {"fountain": {}}})", r);
  EXPECT_TRUE(r.clean());
  EXPECT_FALSE(p.scene);
  EXPECT_FALSE(p.ui.scale);
  EXPECT_FALSE(p.lab);
  const Scene& f = *p.scene_of(*parse_scene("fountain"));
  EXPECT_FALSE(f.count || f.variant || f.block || f.camera);
  EXPECT_TRUE(f.params.empty());
  Report r2;
  parse("{}", r2);
  EXPECT_TRUE(r2.clean());
}

TEST(Presets, ScenesWithoutVariantsDoNotTakeOne) {
  Report r;
  parse(R"({"scenes": {"pi": {"variant": "fast", "initial": "disk", "fast_build": "auto"}}})",
        r);
  EXPECT_TRUE(mentions(r.unknown, "scenes.pi.variant")) << dump(r.unknown);
  EXPECT_TRUE(mentions(r.unknown, "scenes.pi.initial")) << dump(r.unknown);
  EXPECT_TRUE(mentions(r.unknown, "scenes.pi.fast_build")) << dump(r.unknown);
}

TEST(Presets, NBodyFastBuildIsAutoOrABuildName) {
  Report r;
  Preset p = parse(R"({"scenes": {"nbody": {"fast_build": "pairs4"}}})", r);
  EXPECT_TRUE(r.clean());
  EXPECT_EQ(p.scene_of(*parse_scene("nbody"))->choices.at("fast_build"), "pairs4");
  Report r2;
  p = parse(R"({"scenes": {"nbody": {"fast_build": "pair4"}}})", r2);
  EXPECT_TRUE(mentions(r2.invalid, "scenes.nbody.fast_build")) << dump(r2.invalid);
  EXPECT_TRUE(mentions(r2.invalid, "pairs4")) << dump(r2.invalid);  // the list of builds
  EXPECT_FALSE(p.scene_of(*parse_scene("nbody")) &&
               p.scene_of(*parse_scene("nbody"))->choices.count("fast_build"));
}

TEST(Presets, OlderSpellingsStillLoadAsTheNamesTheyStandFor) {
  Report r;
  const Preset p = parse(R"({"scenes": {"fountain": {"variant": "seed"}},
                             "lab": {"name": "sum3", "run": "seed_table"},
                             "sweep": {"target": "nbody", "variant": "seed"}})",
                         r);
  EXPECT_TRUE(r.clean()) << dump(r.skipped());
  EXPECT_EQ(*p.scene_of(*parse_scene("fountain"))->variant, "original");
  EXPECT_EQ(*p.lab->run, "document_table");
  EXPECT_EQ(*p.sweep->variant, "original");
  Report bad;
  parse(R"({"scenes": {"fountain": {"variant": "seeds"}}})", bad);
  EXPECT_TRUE(mentions(bad.invalid, "seeds")) << dump(bad.invalid);
}

// A file saved before "seed" meant only a random seed: every scene, lab and
// sweep variant it names as "seed" loads as "original", nothing skipped.
TEST(Presets, AFileWithTheOldSpellingStillLoads) {
  const std::string path = temp_dir() + "/old_spelling.json";
  std::ofstream(path) << R"({"version": 1, "scene": "nbody",
    "scenes": {"fountain": {"variant": "seed", "count": 4096},
               "nbody": {"variant": "seed"}},
    "lab": {"name": "pi", "variant": "seed"},
    "sweep": {"target": "fountain", "variant": "seed"}})";
  Report r;
  const Preset p = load_preset_file(path, r);
  EXPECT_TRUE(r.clean()) << dump(r.skipped());
  EXPECT_EQ(*p.scene_of(*parse_scene("fountain"))->variant, "original");
  EXPECT_EQ(*p.scene_of(*parse_scene("nbody"))->variant, "original");
  ASSERT_TRUE(p.lab && p.lab->variant);
  EXPECT_EQ(*p.lab->variant, "original");
  EXPECT_EQ(*p.sweep->variant, "original");
  std::filesystem::remove(path);
}

TEST(Presets, LabNullsMeanTheLabsDefaults) {
  Report r;
  const Preset p = parse(R"({"lab": {"name": "pi", "n": null, "block": null, "run": "run"}})", r);
  EXPECT_TRUE(r.clean()) << dump(r.skipped());
  ASSERT_TRUE(p.lab->n && p.lab->block);
  EXPECT_FALSE(p.lab->n->has_value());
  EXPECT_FALSE(p.lab->block->has_value());
  Report r2;
  parse(R"({"lab": {"name": "pi", "run": "seed_table"}})", r2);
  EXPECT_TRUE(mentions(r2.invalid, "lab.run: 'document_table' is sum3's")) << dump(r2.invalid);
}

TEST(Presets, UnusableFilesThrowNamingTheFileAndTheProblem) {
  const std::string dir = temp_dir();
  auto message = [](const std::string& path) {
    Report r;
    try {
      load_preset_file(path, r);
    } catch (const PresetError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  std::string m = message(dir + "/missing.json");
  EXPECT_NE(m.find(dir + "/missing.json"), std::string::npos) << m;
  EXPECT_NE(m.find("No such file"), std::string::npos) << m;
  std::ofstream(dir + "/broken.json") << "{\"version\": 1,";
  m = message(dir + "/broken.json");
  EXPECT_NE(m.find("broken.json' is not valid JSON"), std::string::npos) << m;
  // Found by fuzz_preset: a number nlohmann cannot hold threw out_of_range, not parse_error.
  std::ofstream(dir + "/huge.json") << "{\"version\": 1e222222222222222222222}";
  m = message(dir + "/huge.json");
  EXPECT_NE(m.find("huge.json' is not valid JSON"), std::string::npos) << m;
  std::ofstream(dir + "/array.json") << "[1, 2]";
  m = message(dir + "/array.json");
  EXPECT_NE(m.find("must be a JSON object, not array"), std::string::npos) << m;
  std::ofstream(dir + "/empty.json");
  m = message(dir + "/empty.json");
  EXPECT_NE(m.find("not valid JSON"), std::string::npos) << m;
  m = message(dir);  // a directory
  EXPECT_NE(m.find("Is a directory"), std::string::npos) << m;
  std::filesystem::remove_all(dir);
}

TEST(Presets, CommandLineWinsOverThePreset) {
  Report r;
  Preset p = parse(R"({"scene": "swarm", "ui": {"scale": 1.5},
                       "scenes": {"swarm": {"count": 1000}}})",
                   r);
  RunOptions o;  // no flags: the preset decides
  Preset q = p;
  merge_command_line(q, o);
  EXPECT_EQ(q.scene, *parse_scene("swarm"));
  EXPECT_FLOAT_EQ(*q.ui.scale, 1.5f);
  o.n = 5000;
  o.present = true;
  q = p;
  merge_command_line(q, o);
  EXPECT_EQ(*q.scene_of(*parse_scene("swarm"))->count, 5000);
  EXPECT_TRUE(*q.ui.high_contrast);
  EXPECT_FLOAT_EQ(*q.ui.scale, 2.f) << "--present means scale 2 without --ui-scale";
  o.ui_scale = 3.f;
  o.scene = "nbody";
  o.scene_given = true;
  q = p;
  merge_command_line(q, o);
  EXPECT_EQ(q.scene, *parse_scene("nbody"));
  EXPECT_EQ(*q.scene_of(*parse_scene("nbody"))->count, 5000);
  EXPECT_FLOAT_EQ(*q.ui.scale, 3.f);
}

TEST(Presets, KnobTablesHaveUniqueKeysAndSaneRanges) {
  for (const SceneDescriptor& s : scene_infos()) {
    std::set<std::string> keys;
    for (const SceneParam& k : s.params) {
      EXPECT_TRUE(keys.insert(k.key).second) << s.name << "." << k.key;
      if (k.type != ParamType::Boolean) EXPECT_LT(k.min, k.max) << k.key;
      // A slider drags within what a preset may set.
      if (k.slider_min != k.slider_max) {
        EXPECT_GE(k.slider_min, k.min) << k.key;
        EXPECT_LE(k.slider_max, k.max) << k.key;
      }
    }
    EXPECT_TRUE(keys.count("point_size")) << s.name;
  }
  // The bindings point at the fields they name, and every one has a descriptor entry.
  fountain::Params fp;
  float ps = 0;
  const SceneDescriptor& fountain = scene_info(*parse_scene("fountain"));
  for (const ParamBinding& k : FountainScene::bind_params(fp, ps)) {
    EXPECT_TRUE(fountain.param(k.key)) << k.key;
    if (std::string(k.key) == "bounce") EXPECT_EQ(std::get<float*>(k.ptr), &fp.restitution);
  }
  EXPECT_EQ(FountainScene::bind_params(fp, ps).size(), fountain.params.size());
}

TEST(Presets, SweepCommandReproducesTheTable) {
  const Preset p = sample();
  EXPECT_EQ(sweep_command(*p.sweep),
            "cudaviz sweep fountain --variant original --n 65536 --shapes 1x1,16x16,256x1");
}

// Every preset in assets/presets loads with nothing skipped, and the shipped
// set covers each scene, each lab and the reference documents' tables.
TEST(Presets, EveryShippedPresetLoadsCleanly) {
  // app_tests is not the app: point the lookup at the source's assets explicitly.
  setenv("CUDAVIZ_ASSETS", CUDAVIZ_SOURCE_DIR "/assets", 1);
  const std::vector<std::string> files = shipped_presets(test_config().paths);
  ASSERT_FALSE(files.empty()) << "no presets found (preset_dir: '" << preset_dir(test_config().paths) << "')";
  std::set<std::string> scenes, labs, names;
  for (const std::string& f : files) {
    SCOPED_TRACE(f);
    Report r;
    Preset p;
    ASSERT_NO_THROW(p = load_preset_file(f, r));
    EXPECT_TRUE(r.clean()) << dump(r.skipped());
    EXPECT_TRUE(r.notes.empty()) << dump(r.notes);
    EXPECT_EQ(p.version, kVersion);
    EXPECT_FALSE(p.description.empty());
    if (p.scene) scenes.insert(scene_info(*p.scene).name);
    if (p.lab && p.lab->name) labs.insert(*p.lab->name);
    names.insert(std::filesystem::path(f).stem().string());
  }
  for (const SceneDescriptor& s : scene_infos()) EXPECT_TRUE(scenes.count(s.name)) << s.name;
  for (const std::string& l : LabPanel::lab_names())
    if (l.rfind("test_", 0) != 0) EXPECT_TRUE(labs.count(l)) << l;  // not the tests' own targets
  for (const char* table : {"document000-sum3-table", "document001-reverse-profile", "document002-corelated-1k",
                            "document003-pi-four-ways", "document004-fountain-block-layouts",
                            "document004-fountain-optimized-table"})
    EXPECT_TRUE(names.count(table)) << table;
}
