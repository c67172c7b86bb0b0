// The block-shape sweep shared by `cudaviz sweep` and the sweep window: shape
// lists, the plan per backend, refused rows, the CSV, the worker's cancel, and
// the --panel / --sweep flags. CPU backend only (a GPU sweep is in tests/gpu).
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "bench/bench.h"
#include "cli.h"
#include "tuning/sweep.h"
#include "tuning/sweep_worker.h"

using namespace cv;
using namespace cv::tuning;

namespace {

std::string usage_message(const std::function<void()>& f) {
  try {
    f();
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

SweepOptions cpu_sweep(const std::string& target) {
  SweepOptions o;
  o.target = target;
  o.backend = "cpu";
  return o;
}

}  // namespace

TEST(SweepShapes, ParsesTheDefaultsAndNamesBadValues) {
  const auto shapes = parse_shape_list(kDefaultShapes);
  ASSERT_EQ(shapes.size(), 9u);
  EXPECT_EQ(shapes[0], (BlockShape{1, 1, 1}));
  EXPECT_EQ(shapes[6], (BlockShape{32, 16, 1}));
  EXPECT_EQ(shapes[8], (BlockShape{1, 256, 1}));
  EXPECT_EQ(parse_shape_list(" 8x8 , 16x16").size(), 2u);  // spaces typed in the UI field
  EXPECT_NE(usage_message([] { parse_shape_list("16x"); }).find("'16x'"), std::string::npos);
  EXPECT_NE(usage_message([] { parse_shape_list("0x4"); }).find("block x = 0 must be at least 1"),
            std::string::npos);
  EXPECT_NE(
      usage_message([] { parse_shape_list("8x8,2000x1"); }).find("2000 exceeds the limit of 1024"),
      std::string::npos);
  EXPECT_NE(usage_message([] { parse_shape_list("64x32"); }).find("the limit is 1024 per block"),
            std::string::npos);
  EXPECT_NE(usage_message([] { parse_shape_list(""); }).find("empty"), std::string::npos);
  EXPECT_NE(usage_message([] { parse_shape_list("8x8,,4x4"); }).find("bad block shape"),
            std::string::npos);
}

TEST(SweepPlan, PicksAVariantThatRunsOnTheCpuBackend) {
  EXPECT_EQ(plan_sweep(cpu_sweep("fountain")).variant, "lean");  // runs on both backends
  EXPECT_EQ(plan_sweep(cpu_sweep("swarm")).variant, "swarm");
  EXPECT_EQ(plan_sweep(cpu_sweep("nbody")).variant, "cpu");
  EXPECT_EQ(plan_sweep(cpu_sweep("pi")).variant, "cpu_threads");
  const SweepPlan sum3 = plan_sweep(cpu_sweep("sum3"));
  EXPECT_EQ(sum3.variant, "cpu");
  EXPECT_NE(sum3.note.find("shared needs CUDA"), std::string::npos);
  for (const bench::Target& t : bench::targets()) {  // every target has a CPU default
    const SweepPlan p = plan_sweep(cpu_sweep(t.name));
    EXPECT_EQ(p.backend, Backend::Cpu);
    EXPECT_FALSE(p.variant.empty()) << t.name;
  }
}

TEST(SweepPlan, SaysWhichVariantToUseInstead) {
  SweepOptions o = cpu_sweep("sum3");
  o.variant = "shared";
  const std::string msg = usage_message([&] { plan_sweep(o); });
  EXPECT_NE(msg.find("'shared' needs the CUDA backend"), std::string::npos) << msg;
  EXPECT_NE(msg.find("use --variant cpu"), std::string::npos) << msg;
  o.variant = "all";
  EXPECT_NE(usage_message([&] { plan_sweep(o); }).find("not all"), std::string::npos);
  o.variant = "turbo";
  EXPECT_NE(usage_message([&] { plan_sweep(o); }).find("'turbo' is not a variant"),
            std::string::npos);
  EXPECT_NE(usage_message([] { plan_sweep(cpu_sweep("nosuch")); }).find("unknown scene or lab"),
            std::string::npos);
}

TEST(SweepRows, ARefusedShapeIsARowNotACrash) {
  SweepOptions o = cpu_sweep("fountain");
  o.n = 1024;
  o.reps = 1;
  const SweepPlan plan = plan_sweep(o);
  const auto rows = run_shape(plan, BlockShape{2000, 1, 1});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_FALSE(rows[0].ok);
  EXPECT_NE(rows[0].error.find("exceeds the limit of 1024"), std::string::npos);
  EXPECT_EQ(rows[0].json["refused"], rows[0].error);
  const std::string line = csv_line(rows[0]);
  EXPECT_NE(line.find(",refused,\"block x = 2000"), std::string::npos) << line;
  const auto ok = run_shape(plan, BlockShape{16, 16, 1});
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_TRUE(ok[0].ok);
  EXPECT_GT(ok[0].ms_median, 0);
  EXPECT_NE(csv_line(ok[0]).find(",ok,"), std::string::npos);
}

TEST(SweepCsv, CliWritesOneRowPerShapeOnTheCpuBackend) {
  for (const char* target : {"fountain", "sum3"}) {
    SweepOptions o = cpu_sweep(target);
    o.shapes = parse_shape_list("8x8,16x16,256x1,1x256");
    o.n = std::string(target) == "sum3" ? 300 : 4096;
    o.reps = 1;
    const std::string path = ::testing::TempDir() + "tuning_sweep_" + target + ".csv";
    o.csv = path;
    std::ostringstream out, err;
    ASSERT_EQ(tuning::run_sweep(o, out, err), 0) << err.str();
    const auto lines = lines_of(path);
    ASSERT_EQ(lines.size(), 5u) << target;
    EXPECT_EQ(lines[0] + "\n", csv_header());
    for (size_t i = 1; i < lines.size(); ++i) {
      EXPECT_EQ(lines[i].rfind(std::string(target) + ",", 0), 0u) << lines[i];
      EXPECT_NE(lines[i].find(",ok,"), std::string::npos) << lines[i];
    }
    EXPECT_NE(lines[3].find(",256,1,1,256,"), std::string::npos) << lines[3];
  }
}

TEST(SweepCsv, CliExitsTwoWithTheVariantToUse) {
  SweepOptions o = cpu_sweep("sum3");
  o.variant = "naive";
  o.shapes = {{8, 8, 1}};
  std::ostringstream out, err;
  EXPECT_EQ(tuning::run_sweep(o, out, err), 2);
  EXPECT_NE(err.str().find("use --variant cpu"), std::string::npos) << err.str();
}

TEST(SweepCsv, UnwritablePathIsReported) {
  SweepRow r;
  r.shape = {8, 8, 1};
  const auto err = write_csv("/nonexistent-dir-for-cudaviz/x.csv", {r});
  ASSERT_TRUE(err.has_value());
  EXPECT_NE(err->find("/nonexistent-dir-for-cudaviz/x.csv"), std::string::npos) << *err;
  EXPECT_TRUE(write_csv("", {r}).has_value());
}

TEST(SweepWorker, RunsToTheEndOffTheCallingThread) {
  SweepWorker runner;
  SweepOptions o = cpu_sweep("fountain");
  o.shapes = parse_shape_list("8x8,16x16,32x8");
  o.n = 1024;
  o.reps = 1;
  ASSERT_FALSE(runner.start(o).has_value());
  runner.join();
  EXPECT_EQ(runner.state(), SweepWorker::State::Done);
  EXPECT_EQ(runner.rows().size(), 3u);
  EXPECT_FLOAT_EQ(runner.progress(), 1.f);
  EXPECT_EQ(runner.plan().variant, "lean");
}

TEST(SweepWorker, CancelStopsTheSweep) {
  SweepWorker runner;
  SweepOptions o = cpu_sweep("nbody");  // O(N^2) on the CPU: each shape takes a while
  o.n = 4096;
  o.reps = 3;
  o.shapes = parse_shape_list("32x1,64x1,96x1,128x1,160x1,192x1,224x1,256x1,288x1,320x1");
  ASSERT_FALSE(runner.start(o).has_value());
  EXPECT_TRUE(runner.running());
  EXPECT_TRUE(runner.start(o).has_value());  // one sweep at a time
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  runner.cancel();
  runner.join();
  EXPECT_EQ(runner.state(), SweepWorker::State::Cancelled);
  EXPECT_LT(runner.rows().size(), o.shapes.size());
  // A bad request starts nothing and says why.
  SweepOptions bad = cpu_sweep("sum3");
  bad.variant = "naive";
  bad.shapes = {{8, 8, 1}};
  const auto why = runner.start(bad);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("needs the CUDA backend"), std::string::npos);
  EXPECT_EQ(runner.state(), SweepWorker::State::Cancelled);
}

TEST(TuningFlags, PanelAndSweep) {
  const Command c = parse_command_line(
      {"--scene", "nbody", "--panel", "occupancy,device", "--sweep", "fountain:8x8,16x16"});
  ASSERT_EQ(c.run.panels.size(), 2u);
  EXPECT_EQ(c.run.panels[0], "occupancy");
  EXPECT_EQ(c.run.panels[1], "device");
  EXPECT_EQ(*c.run.sweep, "fountain:8x8,16x16");
  EXPECT_NE(usage_message([] {
              parse_command_line({"--panel", "bogus"});
            }).find("'bogus' is not one of occupancy, device, sweep, frames"),
            std::string::npos);
}
