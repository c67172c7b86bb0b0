// Cancelling a long lab stops within a second: each real lab's CPU path, asked
// for a run of minutes, is cancelled mid-run and the worker must finish within
// a second of the request: a
// teacher's cancel must not wait for a slow CPU path.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "labs/lab_worker.h"
#include "usercode/sandbox/asan.h"

using cv::Backend;
using cv::BenchOptions;
using cv::labs::LabWorker;
using namespace std::chrono_literals;

namespace {

struct LongRun {
  const char* target;
  const char* variant;
  long long n;
};

class LabCancel : public testing::TestWithParam<LongRun> {};

TEST_P(LabCancel, StopsWithinASecondOfTheRequest) {
  const LongRun& run = GetParam();
  BenchOptions o;
  o.target = run.target;
  o.variant = run.variant;
  o.n = run.n;
  o.reps = 1000;
  LabWorker r;
  ASSERT_EQ(r.start({o}, Backend::Cpu), std::nullopt);
  std::this_thread::sleep_for(400ms);  // well into the run (data generated, counting)
  ASSERT_TRUE(r.running()) << run.target << " finished before the cancel: make it longer";
  const auto t0 = std::chrono::steady_clock::now();
  r.cancel();
  r.join();
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);
  RecordProperty("cancel_ms", static_cast<int>(ms.count()));
  // An AddressSanitizer build (scripts/sanitize.sh) runs the CPU paths 2-3x
  // slower, two tests side by side on two cores: 1.0-1.4 s measured there on
  // the development VM; the promise is the release build's.
  const auto bound = cv::sandbox::kAddressSanitizer ? 3000ms : 1000ms;
  EXPECT_LT(ms, bound) << run.target << "/" << run.variant;
  EXPECT_EQ(r.state(), LabWorker::State::Cancelled) << r.error();
}

INSTANTIATE_TEST_SUITE_P(
    RealLabs, LabCancel,
    testing::Values(LongRun{"sum3", "cpu_serial", 20000}, LongRun{"sum3", "cpu", 20000},
                    LongRun{"nbody", "cpu", 32768}, LongRun{"pi", "cpu", 1ll << 40},
                    LongRun{"pi", "cpu_threads", 1ll << 40}, LongRun{"corelated", "cpu", 30000},
                    // 16M values: 1000 reps are minutes. At 64M the cancel fell inside the
                    // data's allocation, whose first touch of 256 MB (not cancellable) took
                    // 0.7 s alone on the 2-core VMs and over a second beside another test.
                    LongRun{"count3", "cpu", 1 << 24}, LongRun{"reverse", "cpu", 1 << 24}),
    [](const testing::TestParamInfo<LongRun>& i) {
      return std::string(i.param.target) + "_" + i.param.variant;
    });

}  // namespace
