// The test-only lab (test_lab.cpp) through every consumer of the lab
// registry: the labs window's list, its notice, notes, actions and pictures,
// presets, lessons, the occupancy catalogue, the lab runner, and, through the
// cudaviz_testlab binary, `cudaviz bench`, `cudaviz sweep`, `--lab --frames`
// and a preset with the lab. A consumer that lists labs by hand instead of
// reading the registry does not know "testlab" and fails here.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "test_config.h"
#include "bench/bench.h"
#include "labs/lab_worker.h"
#include "labs/lab_views.h"
#include "lessons/lesson.h"
#include "presets/preset.h"
#include "testlab/test_lab.h"
#include "tuning/kernel_catalog.h"
#include "ui/lab_panel.h"

using namespace cv;
namespace tl = cv::testlab;

namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

bool mentions(const std::vector<std::string>& v, const std::string& what) {
  for (const auto& s : v)
    if (s.find(what) != std::string::npos) return true;
  return false;
}

struct Outcome {
  int code = -1;
  std::string out, err;
};

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Runs `args` (a shell command line after the binary), stdout and stderr apart.
Outcome run_cmd(const std::string& prefix, const std::string& args) {
  // One file per process: ctest runs these tests in parallel processes.
  const std::string err_path =
      ::testing::TempDir() + "testlab_stderr_" + std::to_string(getpid()) + ".txt";
  const std::string cmd = prefix + " " + args + " 2>" + err_path;
  Outcome r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t got;
  while ((got = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, got);
  const int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  r.err = slurp(err_path);
  return r;
}

Outcome app(const std::string& args) {
  return run_cmd(CUDAVIZ_TESTLAB_BIN, args);
}

// The app in a window of its own (Xvfb); code 125: no display could be started.
Outcome app_in_window(const std::string& args) {
  return run_cmd(std::string(CUDAVIZ_WITH_XVFB) + " " + CUDAVIZ_TESTLAB_BIN,
                 "--scene pi --n 2000 --size 960x600 --backend cpu " + args);
}

std::vector<nlohmann::json> json_lines(const std::string& text) {
  std::vector<nlohmann::json> rows;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line[0] == '{') rows.push_back(nlohmann::json::parse(line));
  return rows;
}

std::string file_with(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + std::to_string(getpid()) + "_" + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace

// --- in process: the registries and what reads them ------------------------

TEST(TestLab, IsALabOfTheLabsWindowWithItsTextAndAction) {
  EXPECT_TRUE(contains(LabPanel::lab_names(), tl::kName));
  const bench::Target* t = bench::find_target(tl::kName);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->kind, bench::Target::Kind::Lab);
  EXPECT_EQ(t->variants, (std::vector<std::string>{"right", "wrong"}));
  EXPECT_EQ(t->lab.notice, tl::kNotice);
  ASSERT_TRUE(t->lab.wrong_note);
  EXPECT_EQ(t->lab.wrong_note("wrong"), tl::kWrongNote);
  EXPECT_EQ(t->lab.wrong_note("right"), "");
  EXPECT_NE(t->lab.action(tl::kAction), nullptr);
  const labs::Views* v = labs::find_views(tl::kName);
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->pictures_title, tl::kPictureTitle);
}

TEST(TestLab, EveryLabsViewsNameALab) {
  const std::vector<std::string> labs = LabPanel::lab_names();
  for (const std::string& name : labs::labs_with_views())
    EXPECT_TRUE(contains(labs, name)) << name << " has views but is not a lab";
}

TEST(TestLab, SimulationsAndToolsAreNotLabs) {
  const std::vector<std::string> labs = LabPanel::lab_names();
  for (const char* other : {"fountain", "swarm", "nbody", "splat", "kernel"}) {
    EXPECT_FALSE(contains(labs, other)) << other;
    ASSERT_NE(bench::find_target(other), nullptr) << other;
  }
  for (const char* lab : {"pi", "sum3", "count3", "reduce", "reverse", "corelated"})
    EXPECT_TRUE(contains(labs, lab)) << lab;
}

TEST(TestLab, PanelSettingsAndActionsTakeIt) {
  LabPanel panel(Backend::Cpu);
  LabSettings s;
  s.lab = tl::kName;
  s.variant = "wrong";
  s.n = 500;
  ASSERT_EQ(panel.apply_settings(s), std::nullopt);
  EXPECT_EQ(panel.settings().lab, tl::kName);
  EXPECT_EQ(panel.settings().variant, "wrong");
  s.variant = "sideways";
  const auto err = panel.apply_settings(s);
  ASSERT_TRUE(err);
  EXPECT_NE(err->find("sideways"), std::string::npos);

  s.variant = "all";
  ASSERT_EQ(panel.apply_settings(s), std::nullopt);
  const auto bad = panel.run_action("document_table");  // another lab's action
  ASSERT_TRUE(bad);
  EXPECT_NE(bad->find("not an action of testlab"), std::string::npos) << *bad;
  ASSERT_EQ(panel.run_action(tl::kAction), std::nullopt);
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (panel.running() && std::chrono::steady_clock::now() < end)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  const auto rows = panel.worker().results();
  ASSERT_EQ(rows.size(), 2u);  // n and 2n
  EXPECT_EQ(rows[0]["n"], 500);
  EXPECT_EQ(rows[1]["n"], 1000);
}

TEST(TestLab, TheRunnerRunsItAndTheWrongVariantIsWrong) {
  labs::LabWorker r;
  BenchOptions o;
  o.target = tl::kName;
  o.n = 100;
  ASSERT_EQ(r.start({o}, Backend::Cpu), std::nullopt);
  r.join();
  const auto rows = r.results();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]["variant"], "right");
  EXPECT_EQ(rows[0]["result"], 4950);
  EXPECT_EQ(rows[0]["correct"], true);
  EXPECT_EQ(rows[1]["variant"], "wrong");
  EXPECT_EQ(rows[1]["correct"], false);
}

TEST(TestLab, PresetsTakeItsNameVariantAndAction) {
  presets::Report r;
  const auto p = presets::parse_preset(
      nlohmann::json::parse(R"({"version": 1, "lab": {"name": "testlab", "variant": "wrong",
                                                       "n": 64, "run": "twice"}})"),
      r);
  EXPECT_TRUE(r.clean()) << (r.skipped().empty() ? "" : r.skipped()[0]);
  ASSERT_TRUE(p.lab && p.lab->name && p.lab->run);
  EXPECT_EQ(*p.lab->name, tl::kName);
  EXPECT_EQ(*p.lab->run, tl::kAction);

  presets::Report r2;  // an action of another lab
  presets::parse_preset(
      nlohmann::json::parse(R"({"version": 1, "lab": {"name": "testlab", "run": "seed_table"}})"),
      r2);
  EXPECT_TRUE(mentions(r2.invalid, "lab.run: 'document_table' is sum3's")) << r2.invalid.size();
  presets::Report r3;  // its action on another lab
  presets::parse_preset(
      nlohmann::json::parse(R"({"version": 1, "lab": {"name": "pi", "run": "twice"}})"), r3);
  EXPECT_TRUE(mentions(r3.invalid, "lab.run: 'twice' is testlab's")) << r3.invalid.size();
  presets::Report r4;
  presets::parse_preset(
      nlohmann::json::parse(R"({"version": 1, "lab": {"name": "testlab", "variant": "up"}})"), r4);
  EXPECT_TRUE(mentions(r4.invalid, "lab.variant")) << r4.invalid.size();
}

TEST(TestLab, LessonsTakeItAndListItAmongTheLabs) {
  const std::string good =
      "# T\n\n## Step: S\n\n```step\nlab: testlab\nrun: lab testlab\nrun.variant: right\n"
      "panel: labs\n```\n\ntext\n";
  EXPECT_NO_THROW(lessons::parse_lesson(good, "testlab.md", test_config().paths));
  try {
    lessons::parse_lesson("# T\n\n## Step: S\n\n```step\nlab: nolab\n```\n\ntext\n", "bad.md",
                          test_config().paths);
    ADD_FAILURE() << "an unknown lab passed";
  } catch (const lessons::LessonError& e) {
    EXPECT_TRUE(mentions(e.problems(), tl::kName)) << e.problems()[0];
  }
}

TEST(TestLab, TheOccupancyCatalogueSaysItsKernelsAreNotShown) {
  std::string why;
  EXPECT_FALSE(tuning::lab_kernel(tl::kName, "right", BlockShape{64, 1, 1}, &why));
  EXPECT_NE(why.find("not exposed"), std::string::npos) << why;
  EXPECT_NE(why.find("sum3"), std::string::npos) << why;  // the labs that are, from the registry
  EXPECT_EQ(why.find(std::string(tl::kName) + ","), std::string::npos) << why;
  EXPECT_FALSE(tuning::lab_kernel(tl::kName, "sideways", BlockShape{64, 1, 1}, &why));
  EXPECT_NE(why.find("not a testlab variant"), std::string::npos) << why;
}

TEST(TestLab, TheShippedLabsKernelsComeFromTheirTargets) {
  // Attributes may carry a CUDA error here (no driver); the pick is still made.
  std::string why;
  const auto naive = tuning::lab_kernel("sum3", "naive", BlockShape{16, 16, 1}, &why);
  ASSERT_TRUE(naive) << why;
  EXPECT_TRUE(naive->two_dimensional);
  EXPECT_EQ(naive->context, "sum3, variant naive");
  const auto fast = tuning::lab_kernel("sum3", "fast", BlockShape{256, 1, 1}, &why);
  ASSERT_TRUE(fast) << why;
  EXPECT_FALSE(fast->two_dimensional);
  const auto warp = tuning::lab_kernel("pi", "warp32", BlockShape{256, 1, 1}, &why);
  ASSERT_TRUE(warp) << why;
  EXPECT_EQ(warp->block.x, 32);  // the block it really runs with
  EXPECT_FALSE(tuning::lab_kernel("reverse", "cpu", BlockShape{256, 1, 1}, &why));
  EXPECT_NE(why.find("launches none of our kernels"), std::string::npos) << why;
  EXPECT_FALSE(tuning::lab_kernel("fountain", "lean", BlockShape{16, 16, 1}, &why));
  EXPECT_NE(why.find("is not a lab"), std::string::npos) << why;
}

// --- through the binary: the command line ---------------------------------

TEST(TestLabCli, BenchPrintsAJsonRowPerVariant) {
  const Outcome r = app(std::string("bench ") + tl::kName + " --n 2000 --reps 2");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto rows = json_lines(r.out);
  ASSERT_EQ(rows.size(), 2u) << r.out;
  for (const auto& row : rows) {
    EXPECT_EQ(row["bench"], tl::kName);
    EXPECT_EQ(row["n"], 2000);
    EXPECT_EQ(row["reference"], 1999000);
    EXPECT_TRUE(row.contains("vs"));
    EXPECT_TRUE(row.contains("elements_per_s"));
  }
  EXPECT_EQ(rows[0]["variant"], "right");
  EXPECT_EQ(rows[0]["correct"], true);
  EXPECT_EQ(rows[1]["variant"], "wrong");
  EXPECT_EQ(rows[1]["correct"], false);
}

TEST(TestLabCli, ABadVariantIsAUsageErrorNamingTheValidOnes) {
  const Outcome r = app(std::string("bench ") + tl::kName + " --variant sideways");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("'sideways' is not a variant of testlab (right, wrong, or all)"),
            std::string::npos)
      << r.err;
  const Outcome big = app(std::string("bench ") + tl::kName + " --n 99999999999");
  EXPECT_EQ(big.code, 2) << big.err;
  EXPECT_NE(big.err.find("--n"), std::string::npos) << big.err;
}

TEST(TestLabCli, SweepRunsItsShapes) {
  const Outcome r = app(std::string("sweep ") + tl::kName + " --shapes 32x1,64x1 --n 1000");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(json_lines(r.out).size(), 2u) << r.out;
}

TEST(TestLabCli, LabRunsInTheWindowToTheEnd) {
  const Outcome r = app_in_window(std::string("--frames 20 --lab ") + tl::kName);
  if (r.code == 125) GTEST_SKIP() << "no display: " << r.err;
  ASSERT_EQ(r.code, 0) << r.err;
  const auto lines = json_lines(r.out);
  ASSERT_FALSE(lines.empty()) << r.out;
  const auto& s = lines.back();
  EXPECT_EQ(s["lab"], tl::kName);
  EXPECT_EQ(s["lab_state"], "done");
  EXPECT_EQ(s["lab_rows"], 2);
  EXPECT_EQ(s["layout_problems"].size(), 0u) << s["layout_problems"].dump();
}

TEST(TestLabCli, APresetWithTheLabRunsItsAction) {
  const std::string preset = file_with(
      "testlab_preset.json",
      R"({"version": 1, "lab": {"name": "testlab", "n": 300, "open": true, "run": "twice"}})");
  const Outcome r = app_in_window("--frames 20 --preset " + preset);
  if (r.code == 125) GTEST_SKIP() << "no display: " << r.err;
  ASSERT_EQ(r.code, 0) << r.err;
  const auto lines = json_lines(r.out);
  ASSERT_FALSE(lines.empty()) << r.out;
  const auto& s = lines.back();
  EXPECT_EQ(s["preset_skipped"], 0) << r.err;
  EXPECT_EQ(s["lab"], tl::kName);
  EXPECT_EQ(s["lab_state"], "done");
  EXPECT_EQ(s["lab_rows"], 2);  // n and 2n
}

TEST(TestLabCli, AnUnknownLabIsRefusedNamingTheLabs) {
  const Outcome r = app_in_window("--frames 5 --lab nolab");
  if (r.code == 125) GTEST_SKIP() << "no display: " << r.err;
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("'nolab' is not a lab"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(tl::kName), std::string::npos) << r.err;
}
