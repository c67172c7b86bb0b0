// `cudaviz bench sum3|corelated` end to end on the CPU backend: fields, the
// answers checked, --input files good and bad.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bench/bench.h"

namespace {

std::vector<nlohmann::json> parse_lines(const std::string& text) {
  std::istringstream lines(text);
  std::string line;
  std::vector<nlohmann::json> rows;
  while (std::getline(lines, line)) rows.push_back(nlohmann::json::parse(line));
  return rows;
}

std::string write_temp(const std::string& name, const std::string& body) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path, std::ios::trunc) << body;
  return path;
}

cv::BenchOptions cpu_opts(const std::string& target) {
  cv::BenchOptions opt;
  opt.target = target;
  opt.backend = "cpu";
  opt.reps = 2;
  return opt;
}

TEST(BenchSum3, CpuBackendRunsCpuVariantsAndChecksThem) {
  auto opt = cpu_opts("sum3");
  opt.n = 300;
  std::ostringstream out, err;
  ASSERT_EQ(cv::bench::run_bench(opt, out, err), 0) << err.str();
  const auto rows = parse_lines(out.str());
  ASSERT_EQ(rows.size(), 3u);  // the CPU variants; GPU ones need a device
  EXPECT_EQ(rows[0]["variant"], "cpu_serial");
  EXPECT_EQ(rows[1]["variant"], "cpu");
  EXPECT_EQ(rows[2]["variant"], "cpu_sorted");
  for (const auto& j : rows) {
    for (const char* key : {"bench", "backend", "n", "block", "reps", "ms_median", "triples_per_s",
                            "result", "reference", "correct", "vs"})
      EXPECT_TRUE(j.contains(key)) << key;
    EXPECT_EQ(j["backend"], "cpu");
    EXPECT_EQ(j["n"], 300);
    EXPECT_EQ(j["correct"], true) << j.dump();
    EXPECT_EQ(j["result"], j["reference"]);
    EXPECT_GT(j["result"].get<uint64_t>(), 0u);
    EXPECT_GT(j["triples_per_s"].get<double>(), 0.0);
  }
}

TEST(BenchSum3, InputFileIsUsedAndCountedExactly) {
  auto opt = cpu_opts("sum3");
  opt.input = write_temp("sum3_in.txt", "-1 0 1 2 -1 -4\n2147483647 2147483647 2\n");
  std::ostringstream out, err;
  ASSERT_EQ(cv::bench::run_bench(opt, out, err), 0) << err.str();
  const auto rows = parse_lines(out.str());
  ASSERT_EQ(rows.size(), 3u);
  for (const auto& j : rows) {
    EXPECT_EQ(j["n"], 9);
    // (-1,0,1) twice, (-1,-1,2) with either 2, (-4,2,2); MAX + MAX + 2 wraps to 0 in 32 bits only.
    EXPECT_EQ(j["result"], 5);
    EXPECT_EQ(j["correct"], true);
  }
  // A prefix of the file with --n: the document's classic six values hold 3 zero triples.
  opt.n = 6;
  out.str("");
  ASSERT_EQ(cv::bench::run_bench(opt, out, err), 0) << err.str();
  for (const auto& j : parse_lines(out.str())) EXPECT_EQ(j["result"], 3);
  opt.n = 10;
  EXPECT_EQ(cv::bench::run_bench(opt, out, err), 2);
  EXPECT_NE(err.str().find("exceeds the 9 values"), std::string::npos) << err.str();
}

TEST(BenchSum3, BadInputFileExitsTwoNamingTheFile) {
  for (const std::string& path :
       {::testing::TempDir() + "no_such_sum3.txt", write_temp("sum3_bad.txt", "1 2 three\n")}) {
    auto opt = cpu_opts("sum3");
    opt.input = path;
    std::ostringstream out, err;
    EXPECT_EQ(cv::bench::run_bench(opt, out, err), 2);
    EXPECT_NE(err.str().find(path), std::string::npos) << err.str();
    EXPECT_TRUE(out.str().empty());
  }
}

TEST(BenchSum3, BadBlockAndSizeExitTwo) {
  auto opt = cpu_opts("sum3");
  opt.n = 50;
  opt.block = cv::BlockShape{2048, 1, 1};
  std::ostringstream out, err;
  EXPECT_EQ(cv::bench::run_bench(opt, out, err), 2);
  EXPECT_NE(err.str().find("--block"), std::string::npos) << err.str();
  opt.block.reset();
  opt.n = (1ll << 30) + 1;
  err.str("");
  EXPECT_EQ(cv::bench::run_bench(opt, out, err), 2);
  EXPECT_NE(err.str().find("--n"), std::string::npos) << err.str();
}

TEST(BenchSum3, GpuVariantOnCpuBackendIsAUsageError) {
  auto opt = cpu_opts("sum3");
  opt.variant = "fast";
  opt.n = 50;
  std::ostringstream out, err;
  EXPECT_EQ(cv::bench::run_bench(opt, out, err), 2);
  EXPECT_NE(err.str().find("needs the CUDA backend"), std::string::npos) << err.str();
}

TEST(BenchSum3, CancelStopsTheRun) {
  auto opt = cpu_opts("sum3");
  opt.n = 2000;
  cv::RunControl control;
  control.cancel = true;
  opt.control = &control;
  const cv::bench::Target* t = cv::bench::find_target("sum3");
  ASSERT_NE(t, nullptr);
  EXPECT_THROW(t->run(opt, cv::Backend::Cpu), cv::bench::Cancelled);
}

TEST(BenchCorelated, CpuBackendGeneratedRows) {
  auto opt = cpu_opts("corelated");
  opt.n = 400;
  std::ostringstream out, err;
  ASSERT_EQ(cv::bench::run_bench(opt, out, err), 0) << err.str();
  const auto rows = parse_lines(out.str());
  ASSERT_EQ(rows.size(), 1u);
  const auto& j = rows[0];
  for (const char* key : {"pairs_per_s", "result", "reference", "correct", "threshold"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["variant"], "cpu");
  EXPECT_EQ(j["n"], 400);
  EXPECT_EQ(j["correct"], true);
  EXPECT_GT(j["result"].get<uint64_t>(), 0u);
}

TEST(BenchCorelated, InputRowsSeedExample) {
  auto opt = cpu_opts("corelated");
  opt.input = write_temp("corel_in.txt", "2 5 6 10 11\n5 10 11 15\n\n6 10 11 17\n3 10 12 17\n");
  std::ostringstream out, err;
  ASSERT_EQ(cv::bench::run_bench(opt, out, err), 0) << err.str();
  const auto rows = parse_lines(out.str());
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0]["n"], 4);
  EXPECT_EQ(rows[0]["result"], 2);  // rows 1-2 and 1-3 share 3 ids (see test_corelated.cpp)
  EXPECT_EQ(rows[0]["correct"], true);
}

TEST(BenchCorelated, BadInputFileExitsTwoNamingTheFile) {
  for (const std::string& path :
       {::testing::TempDir() + "no_such_rows.txt", write_temp("corel_bad.txt", "1 2\n3 x\n")}) {
    auto opt = cpu_opts("corelated");
    opt.input = path;
    std::ostringstream out, err;
    EXPECT_EQ(cv::bench::run_bench(opt, out, err), 2);
    EXPECT_NE(err.str().find(path), std::string::npos) << err.str();
  }
  auto opt = cpu_opts("corelated");
  opt.variant = "shared";
  std::ostringstream out, err;
  EXPECT_EQ(cv::bench::run_bench(opt, out, err), 2);
  EXPECT_NE(err.str().find("needs the CUDA backend"), std::string::npos) << err.str();
}

}  // namespace
