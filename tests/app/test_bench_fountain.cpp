// The bench plumbing end to end on the CPU backend: JSON fields and ratios.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <fstream>
#include <sstream>

#include "bench/bench.h"
#include "tuning/sweep.h"

TEST(BenchFountain, CpuBackendPrintsOneJsonLinePerVariant) {
  cv::BenchOptions opt;
  opt.target = "fountain";
  opt.n = 4096;
  opt.reps = 3;
  opt.backend = "cpu";
  std::ostringstream out, err;
  ASSERT_EQ(cv::bench::run_bench(opt, out, err), 0) << err.str();
  std::istringstream lines(out.str());
  std::string line;
  std::vector<nlohmann::json> rows;
  while (std::getline(lines, line)) rows.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(rows.size(), 2u);
  for (auto& j : rows) {
    for (const char* key : {"bench", "variant", "backend", "device", "n", "block", "reps", "ms_median", "ms_min",
                            "particles_per_s", "gb_per_s", "vs"})
      EXPECT_TRUE(j.contains(key)) << key;
    EXPECT_EQ(j["backend"], "cpu");
    EXPECT_EQ(j["n"], 4096);
    EXPECT_EQ(j["reps"], 3);
    EXPECT_GT(j["ms_median"].get<double>(), 0.0);
    EXPECT_LE(j["ms_min"].get<double>(), j["ms_median"].get<double>());
    EXPECT_EQ(j["vs"].size(), 1u);
  }
  EXPECT_TRUE(rows[0]["vs"].contains("original"));
  EXPECT_DOUBLE_EQ(rows[0]["vs"]["original"].get<double>() * rows[1]["vs"]["lean"].get<double>(), 1.0);
}

TEST(BenchFountain, UsageErrorsExitTwo) {
  std::ostringstream out, err;
  cv::BenchOptions opt;
  opt.target = "nosuch";
  EXPECT_EQ(cv::bench::run_bench(opt, out, err), 2);
  EXPECT_NE(err.str().find("unknown scene or lab 'nosuch'"), std::string::npos);
  opt.target = "fountain";
  opt.variant = "turbo";
  err.str("");
  EXPECT_EQ(cv::bench::run_bench(opt, out, err), 2);
  EXPECT_NE(err.str().find("'turbo' is not a variant"), std::string::npos);
}

TEST(SweepFountain, WritesOneCsvRowPerShape) {
  cv::SweepOptions opt;
  opt.target = "fountain";
  opt.shapes = {{8, 8, 1}, {16, 16, 1}, {256, 1, 1}};
  opt.n = 2048;
  opt.reps = 2;
  opt.backend = "cpu";
  const std::string path = ::testing::TempDir() + "sweep_fountain.csv";
  opt.csv = path;
  std::ostringstream out, err;
  ASSERT_EQ(cv::tuning::run_sweep(opt, out, err), 0) << err.str();
  std::ifstream in(path);
  std::string line;
  int rows = 0;
  std::getline(in, line);
  EXPECT_EQ(line.rfind("bench,variant,backend", 0), 0u);
  while (std::getline(in, line)) ++rows;
  EXPECT_EQ(rows, 3);
}
