// `bench nbody` and `bench swarm` on the CPU backend: fields, variants and
// usage errors.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "bench/bench.h"

namespace {

std::vector<nlohmann::json> rows_of(const std::string& text) {
  std::istringstream lines(text);
  std::string line;
  std::vector<nlohmann::json> rows;
  while (std::getline(lines, line)) rows.push_back(nlohmann::json::parse(line));
  return rows;
}

}  // namespace

TEST(BenchNBody, CpuBackendRunsTheCpuTwin) {
  cv::BenchOptions opt;
  opt.target = "nbody";
  opt.n = 512;
  opt.reps = 3;
  opt.backend = "cpu";
  std::ostringstream out, err;
  ASSERT_EQ(cv::bench::run_bench(opt, out, err), 0) << err.str();
  const auto rows = rows_of(out.str());
  ASSERT_EQ(rows.size(), 1u);
  const auto& j = rows[0];
  for (const char* key : {"bench", "variant", "backend", "device", "n", "block", "reps",
                          "ms_median", "ms_min", "interactions_per_s", "gflops", "vs"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["bench"], "nbody");
  EXPECT_EQ(j["variant"], "cpu");
  EXPECT_EQ(j["backend"], "cpu");
  EXPECT_EQ(j["n"], 512);
  EXPECT_EQ(j["reps"], 3);
  const double s = j["ms_median"].get<double>() * 1e-3;
  ASSERT_GT(s, 0.0);
  EXPECT_NEAR(j["interactions_per_s"].get<double>(), 512.0 * 512.0 / s, 1e-6 * 512.0 * 512.0 / s);
  EXPECT_NEAR(j["gflops"].get<double>(), 20.0 * j["interactions_per_s"].get<double>() * 1e-9,
              1e-9 * j["gflops"].get<double>());
}

TEST(BenchNBody, UsageErrorsExitTwo) {
  std::ostringstream out, err;
  cv::BenchOptions opt;
  opt.target = "nbody";
  opt.backend = "cpu";
  opt.variant = "fast";  // a GPU memory strategy: not on the CPU backend
  EXPECT_EQ(cv::bench::run_bench(opt, out, err), 2);
  EXPECT_NE(err.str().find("CUDA only"), std::string::npos) << err.str();
  opt.variant = "warp";
  err.str("");
  EXPECT_EQ(cv::bench::run_bench(opt, out, err), 2);
  EXPECT_NE(err.str().find("'warp' is not a variant"), std::string::npos) << err.str();
  opt.variant = "all";
  opt.n = 0;
  err.str("");
  EXPECT_EQ(cv::bench::run_bench(opt, out, err), 2);
  EXPECT_NE(err.str().find("--n"), std::string::npos) << err.str();
  EXPECT_TRUE(out.str().empty());
}

TEST(BenchSwarm, CpuBackendPrintsBothVariants) {
  cv::BenchOptions opt;
  opt.target = "swarm";
  opt.n = 4096;
  opt.reps = 3;
  opt.backend = "cpu";
  std::ostringstream out, err;
  ASSERT_EQ(cv::bench::run_bench(opt, out, err), 0) << err.str();
  const auto rows = rows_of(out.str());
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]["variant"], "swarm");
  EXPECT_EQ(rows[1]["variant"], "sparkler");
  for (const auto& j : rows) {
    EXPECT_EQ(j["backend"], "cpu");
    EXPECT_GT(j["particles_per_s"].get<double>(), 0.0);
    EXPECT_GT(j["gb_per_s"].get<double>(), 0.0);
    EXPECT_EQ(j["bytes_per_particle"], 64);
  }
  EXPECT_DOUBLE_EQ(rows[0]["vs"]["sparkler"].get<double>() * rows[1]["vs"]["swarm"].get<double>(),
                   1.0);
}
