// `cudaviz bench sum3|corelated --backend cuda`: every variant runs, and every
// answer agrees with the CPU reference the target computes.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "bench/bench.h"
#include "gpu_test_util.h"

namespace {

std::vector<nlohmann::json> run_lines(cv::BenchOptions opt, int* rc) {
  std::ostringstream out, err;
  *rc = cv::bench::run_bench(opt, out, err);
  EXPECT_EQ(*rc, 0) << err.str();
  std::istringstream lines(out.str());
  std::string line;
  std::vector<nlohmann::json> rows;
  while (std::getline(lines, line)) rows.push_back(nlohmann::json::parse(line));
  return rows;
}

TEST(BenchSum3Gpu, AllVariantsCorrectOnCuda) {
  CV_REQUIRE_GPU();
  for (cv::BlockShape b : {cv::BlockShape{16, 16, 1}, {7, 13, 1}, {33, 1, 1}}) {
    cv::BenchOptions opt;
    opt.target = "sum3";
    opt.backend = "cuda";
    opt.n = cv::sanitizer_run() ? 500 : 1500;  // sanitizer run: 1/27 of the triples
    opt.reps = 2;
    opt.block = b;
    int rc = 0;
    const auto rows = run_lines(opt, &rc);
    std::set<std::string> seen;
    for (const auto& j : rows) {
      seen.insert(j["variant"].get<std::string>());
      EXPECT_EQ(j["correct"], true) << j.dump();
      EXPECT_GT(j["triples_per_s"].get<double>(), 0.0);
    }
    EXPECT_EQ(seen.size(), 8u) << cv::to_string(b);
  }
}

TEST(BenchCorelatedGpu, AllVariantsCorrectOnCuda) {
  CV_REQUIRE_GPU();
  cv::BenchOptions opt;
  opt.target = "corelated";
  opt.backend = "cuda";
  opt.n = cv::sanitizer_run() ? 300 : 700;  // sanitizer run: a fifth of the pairs
  opt.reps = 2;
  opt.block = cv::BlockShape{32, 8, 1};
  int rc = 0;
  const auto rows = run_lines(opt, &rc);
  EXPECT_EQ(rows.size(), 6u);
  for (const auto& j : rows) EXPECT_EQ(j["correct"], true) << j.dump();
}

}  // namespace
