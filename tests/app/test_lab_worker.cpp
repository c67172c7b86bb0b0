// The lab runner: bench targets on a worker thread, with progress, cancel and
// errors. Two test-only targets stand in for a long lab and a failing one.
#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <thread>

#include "bench/bench.h"
#include "ui/lab_panel.h"
#include "labs/lab_worker.h"
#include "labs/sum3_views.h"

using cv::Backend;
using cv::BenchOptions;
using cv::labs::LabWorker;
using namespace std::chrono_literals;

namespace {

// Works for up to `n` x 10 ms, checking for cancel between slices.
std::vector<cv::bench::Measurement> slow_lab(const BenchOptions& opt, Backend backend) {
  const long long slices = opt.n.value_or(3000);
  for (long long i = 0; i < slices; ++i) {
    cv::bench::check_cancel(opt, static_cast<float>(i) / static_cast<float>(slices));
    std::this_thread::sleep_for(10ms);
  }
  cv::bench::Measurement m;
  m.variant = opt.variant == "all" ? "one" : opt.variant;
  m.backend = backend;
  m.n = slices;
  m.stats.median_ms = 10.0 * static_cast<double>(slices);
  m.stats.reps = 1;
  m.fields["result"] = slices;
  m.fields["reference"] = slices;
  m.fields["correct"] = true;
  return {m};
}

std::vector<cv::bench::Measurement> failing_lab(const BenchOptions& opt, Backend) {
  cv::bench::check_cancel(opt, 0.5f);
  throw std::runtime_error("cudaMemcpy failed: cudaErrorIllegalAddress (test)");
}

const cv::bench::Registrar slow_reg({"test_slow_lab", "one", {"one", "two"}, slow_lab});
const cv::bench::Registrar fail_reg({"test_failing_lab", "x", {"x"}, failing_lab});

BenchOptions job(const std::string& target, std::optional<long long> n = std::nullopt,
                 const std::string& variant = "all") {
  BenchOptions o;
  o.target = target;
  o.n = n;
  o.variant = variant;
  return o;
}

// Polls until the runner leaves Running or the deadline passes.
bool wait_done(const LabWorker& r, std::chrono::milliseconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (r.running() && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(5ms);
  return !r.running();
}

}  // namespace

TEST(LabWorker, RunsACpuBenchTargetToCompletion) {
  LabWorker r;
  BenchOptions o = job("fountain", 4096);
  o.reps = 2;
  ASSERT_EQ(r.start({o}, Backend::Cpu), std::nullopt);
  ASSERT_TRUE(wait_done(r, 60s));
  r.join();
  EXPECT_EQ(r.state(), LabWorker::State::Done);
  EXPECT_FLOAT_EQ(r.progress(), 1.f);
  const auto rows = r.results();
  ASSERT_EQ(rows.size(), 2u);  // lean and seed
  for (const auto& row : rows) {
    EXPECT_EQ(row["bench"], "fountain");
    EXPECT_EQ(row["backend"], "cpu");
    EXPECT_EQ(row["n"], 4096);
    EXPECT_GT(row["ms_median"].get<double>(), 0.0);
    EXPECT_TRUE(row.contains("vs"));
  }
  EXPECT_TRUE(r.error().empty());
}

TEST(LabWorker, RunsJobsInOrderAndCountsThem) {
  LabWorker r;
  ASSERT_EQ(r.start({job("test_slow_lab", 2, "one"), job("test_slow_lab", 3, "two")}, Backend::Cpu),
            std::nullopt);
  ASSERT_TRUE(wait_done(r, 10s));
  EXPECT_EQ(r.state(), LabWorker::State::Done);
  EXPECT_EQ(r.jobs_done(), 2);
  const auto rows = r.results();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]["variant"], "one");
  EXPECT_EQ(rows[0]["result"], 2);
  EXPECT_EQ(rows[1]["variant"], "two");
  EXPECT_EQ(rows[1]["result"], 3);
}

TEST(LabWorker, CancelStopsWithinASecond) {
  LabWorker r;
  ASSERT_EQ(r.start({job("test_slow_lab")}, Backend::Cpu), std::nullopt);  // 30 s if not cancelled
  std::this_thread::sleep_for(100ms);
  EXPECT_TRUE(r.running());
  EXPECT_GT(r.progress(), 0.f);
  EXPECT_LT(r.progress(), 0.5f);
  const auto t0 = std::chrono::steady_clock::now();
  r.cancel();
  r.join();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 1s);
  EXPECT_EQ(r.state(), LabWorker::State::Cancelled);
  EXPECT_TRUE(r.results().empty());
  // The runner can start again after a cancel.
  ASSERT_EQ(r.start({job("test_slow_lab", 1)}, Backend::Cpu), std::nullopt);
  ASSERT_TRUE(wait_done(r, 10s));
  EXPECT_EQ(r.state(), LabWorker::State::Done);
}

TEST(LabWorker, DestructionWhileRunningCancelsAndJoins) {
  const auto t0 = std::chrono::steady_clock::now();
  {
    LabWorker r;
    ASSERT_EQ(r.start({job("test_slow_lab")}, Backend::Cpu), std::nullopt);
    std::this_thread::sleep_for(50ms);
  }
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 2s);
}

TEST(LabWorker, ExceptionsSurfaceAsFailedWithTheMessage) {
  LabWorker r;
  ASSERT_EQ(r.start({job("test_slow_lab", 1), job("test_failing_lab")}, Backend::Cpu),
            std::nullopt);
  ASSERT_TRUE(wait_done(r, 10s));
  EXPECT_EQ(r.state(), LabWorker::State::Failed);
  EXPECT_NE(r.error().find("cudaErrorIllegalAddress"), std::string::npos);
  EXPECT_EQ(r.results().size(), 1u);  // the job before the failure still reports
}

TEST(LabWorker, RefusesBadRequestsWithoutStarting) {
  LabWorker r;
  auto err = r.start({job("no_such_lab")}, Backend::Cpu);
  ASSERT_TRUE(err);
  EXPECT_NE(err->find("no_such_lab"), std::string::npos);
  err = r.start({job("test_slow_lab", 1, "three")}, Backend::Cpu);
  ASSERT_TRUE(err);
  EXPECT_NE(err->find("three"), std::string::npos);
  EXPECT_TRUE(r.start({}, Backend::Cpu).has_value());
  EXPECT_EQ(r.state(), LabWorker::State::Idle);

  ASSERT_EQ(r.start({job("test_slow_lab")}, Backend::Cpu), std::nullopt);
  err = r.start({job("test_slow_lab", 1)}, Backend::Cpu);
  ASSERT_TRUE(err);
  EXPECT_NE(err->find("still running"), std::string::npos);
  r.cancel();
  r.join();
}

TEST(LabPanel, LabsAreTheTargetsThatAreNotScenes) {
  const auto names = cv::LabPanel::lab_names();
  for (const char* scene : {"fountain", "swarm", "nbody", "splat"})
    EXPECT_EQ(std::find(names.begin(), names.end(), scene), names.end()) << scene;
  EXPECT_NE(std::find(names.begin(), names.end(), "test_slow_lab"), names.end());
}

TEST(Sum3View, WorkingThreadsPerBlockMatchTheKernelsCondition) {
  for (unsigned long long n : {1ull, 2ull, 3ull, 17ull, 64ull, 100ull})
    for (auto [bx, by] : {std::pair<unsigned long long, unsigned long long>{1, 1},
                          {16, 16},
                          {32, 8},
                          {5, 7},
                          {1, 64}}) {
      unsigned long long total = 0;
      for (unsigned long long i0 = 0; i0 < n + bx; i0 += bx)
        for (unsigned long long j0 = 0; j0 < n + by; j0 += by) {
          unsigned long long brute = 0;
          for (unsigned long long i = i0; i < i0 + bx; ++i)
            for (unsigned long long j = j0; j < j0 + by; ++j)
              if (i < n - 2 && j < n - 1 && j > i && n >= 3) ++brute;  // the document's sum3Kernel test
          EXPECT_EQ(cv::labs::sum3_working_in_block(i0, j0, bx, by, n), brute)
              << "n " << n << " block " << bx << "x" << by << " at " << i0 << "," << j0;
          total += brute;
        }
      EXPECT_EQ(total, n >= 3 ? (n - 1) * (n - 2) / 2 : 0);
    }
}
