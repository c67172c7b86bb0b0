// The pi, count3, reduce and reverse bench targets on the CPU backend, as the
// CLI and the UI's lab panel run them.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bench/bench.h"

namespace {

std::vector<nlohmann::json> run_ok(cv::BenchOptions opt) {
  opt.backend = "cpu";
  std::ostringstream out, err;
  EXPECT_EQ(cv::bench::run_bench(opt, out, err), 0) << err.str();
  std::vector<nlohmann::json> rows;
  std::istringstream lines(out.str());
  std::string line;
  while (std::getline(lines, line)) rows.push_back(nlohmann::json::parse(line));
  return rows;
}

int run_status(cv::BenchOptions opt, std::string* message = nullptr) {
  if (opt.backend == "auto") opt.backend = "cpu";
  std::ostringstream out, err;
  const int rc = cv::bench::run_bench(opt, out, err);
  if (message) *message = err.str();
  return rc;
}

cv::BenchOptions options(const std::string& target, long long n) {
  cv::BenchOptions o;
  o.target = target;
  o.n = n;
  o.reps = 2;
  return o;
}

}  // namespace

TEST(BenchLabs1, PiCpuVariantsAgreeAndAreCorrect) {
  const auto rows = run_ok(options("pi", 1000003));
  ASSERT_EQ(rows.size(), 2u);  // the GPU variants are listed but not run on the CPU backend
  EXPECT_EQ(rows[0]["variant"], "cpu");
  EXPECT_EQ(rows[1]["variant"], "cpu_threads");
  for (const auto& j : rows) {
    for (const char* key :
         {"samples_per_s", "result", "reference", "correct", "abs_error", "hits", "vs"})
      EXPECT_TRUE(j.contains(key)) << key;
    EXPECT_TRUE(j["correct"].get<bool>());
    EXPECT_DOUBLE_EQ(j["reference"].get<double>(), M_PI);
    EXPECT_NEAR(j["result"].get<double>(), M_PI, 0.02);
  }
  EXPECT_EQ(rows[0]["hits"], rows[1]["hits"]);
}

TEST(BenchLabs1, Count3AndReduceMatchTheirReference) {
  for (const char* target : {"count3", "reduce"}) {
    auto opt = options(target, 100001);
    opt.block = cv::BlockShape{33, 1, 1};
    const auto rows = run_ok(opt);
    ASSERT_EQ(rows.size(), 2u) << target;
    for (const auto& j : rows) {
      for (const char* key : {"gb_per_s", "result", "reference", "correct"})
        EXPECT_TRUE(j.contains(key)) << key;
      EXPECT_TRUE(j["correct"].get<bool>());
      EXPECT_EQ(j["result"], j["reference"]);
      EXPECT_EQ(j["block"], nlohmann::json::array({33, 1, 1}));
    }
  }
}

TEST(BenchLabs1, ReduceReadsInputFile) {
  const std::string path = ::testing::TempDir() + "labs1_ints.txt";
  {
    std::ofstream f(path);
    f << "2147483647 2147483647\n-3 9\r\n6 -2147483648 1\n";
  }
  auto opt = options("reduce", 0);
  opt.n.reset();
  opt.input = path;
  auto rows = run_ok(opt);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]["result"].get<long long>(), 2147483647ll * 2 - 3 + 9 + 6 - 2147483648ll + 1);
  EXPECT_EQ(rows[0]["n"], 7);
  opt.target = "count3";
  rows = run_ok(opt);
  EXPECT_EQ(rows[0]["result"].get<long long>(), 3);  // -3, 9, 6
  opt.n = 3;                                         // a prefix
  rows = run_ok(opt);
  EXPECT_EQ(rows[0]["n"], 3);
  EXPECT_EQ(rows[0]["result"].get<long long>(), 1);

  std::string msg;
  opt.n = 8;
  EXPECT_EQ(run_status(opt, &msg), 2) << msg;
  opt.n.reset();
  opt.input = ::testing::TempDir() + "labs1_missing.txt";
  EXPECT_EQ(run_status(opt, &msg), 2);
  EXPECT_NE(msg.find("labs1_missing.txt"), std::string::npos) << msg;
  {
    std::ofstream f(path);
    f << "1 2 x3\n";
  }
  opt.input = path;
  EXPECT_EQ(run_status(opt, &msg), 2) << msg;
}

TEST(BenchLabs1, ReverseCpuVariantsAreCorrect) {
  const auto rows = run_ok(options("reverse", 1001));
  ASSERT_EQ(rows.size(), 2u);
  for (const auto& j : rows) {
    EXPECT_TRUE(j["correct"].get<bool>());
    EXPECT_EQ(j["result"], 0);
    EXPECT_GT(j["gb_per_s"].get<double>(), 0.0);
  }
}

TEST(BenchLabs1, BadSizesAndBlocksExitTwo) {
  std::string msg;
  for (const char* target : {"pi", "count3", "reduce", "reverse"}) {
    auto opt = options(target, -1);
    EXPECT_EQ(run_status(opt, &msg), 2) << target;
    EXPECT_NE(msg.find("--n"), std::string::npos) << msg;
    opt = options(target, 100);
    opt.block = cv::BlockShape{2000, 1, 1};
    EXPECT_EQ(run_status(opt, &msg), 2) << target;
    EXPECT_NE(msg.find("--block"), std::string::npos) << msg;
    opt = options(target, 100);
    opt.variant = "fast";
    if (std::string(target) == "reverse") opt.variant = "shared";
    EXPECT_EQ(run_status(opt, &msg), 2) << target << ": a GPU variant named on the CPU backend";
  }
  auto opt = options("pi", 0);
  EXPECT_EQ(run_status(opt, &msg), 2);
  opt = options("pi", 100);
  opt.input = "whatever.txt";
  EXPECT_EQ(run_status(opt, &msg), 2);
}

TEST(BenchLabs1, CancelStopsATargetRunOnAWorker) {
  cv::RunControl control;
  control.cancel = true;
  auto opt = options("pi", 1ll << 40);
  opt.control = &control;
  const cv::bench::Target* t = cv::bench::find_target("pi");
  ASSERT_NE(t, nullptr);
  EXPECT_THROW(t->run(opt, cv::Backend::Cpu), cv::bench::Cancelled);
  opt = options("reduce", 1000);
  opt.control = &control;
  EXPECT_THROW(cv::bench::find_target("reduce")->run(opt, cv::Backend::Cpu), cv::bench::Cancelled);
}
