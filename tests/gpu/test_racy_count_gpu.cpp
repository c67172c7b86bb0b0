// Document 001's racy count (`count[0]++` from every thread that finds a
// multiple of 3) must lose updates in every way the app runs a student's
// kernel: plain, guarded, bounds-checked, both (the labs window), one launch
// or several. The table of results is printed, so a mode that hides the race
// shows which it is.
#include <gtest/gtest.h>

#include <cstdio>

#include "gpu/gpu_test_util.h"
#include "usercode/compile/compile.h"
#include "usercode/client/runner_client.h"
#include "usercode/templates/template_registry.h"
#include "test_config.h"

namespace cv::usercode {
namespace {

TEST(RacyCountGpu, LosesUpdatesInEveryModeTheAppRunsIt) {
  CV_REQUIRE_GPU();
  std::string why;
  const std::string runner = find_runner(test_config().paths.runner, &why);
  ASSERT_FALSE(runner.empty()) << why;
  const TemplateSpec& t = *find_template("count3");
  const std::string racy = read_template_source(*find_entry("count3_racy"), test_config().paths);
  const std::string atomic = read_template_source(*find_entry("count3_atomic"), test_config().paths);
  for (const bool guard : {false, true})
    for (const bool checked : {false, true}) {
      CompileRequest req;
      req.source = racy;
      req.guard = guard;
      req.checked = checked;
      const CompileResult c = compile(req);
      ASSERT_TRUE(c.ok) << c.first_error();
      CompileRequest ref_req = req;
      ref_req.source = atomic;
      const CompileResult ref = compile(ref_req);
      ASSERT_TRUE(ref.ok) << ref.first_error();
      RunnerClient client(runner, Backend::Cuda);
      for (const long long n : {1ll << 20, (1ll << 22) + 17})
        for (const int reps : {1, 3}) {
          Workload w;
          w.n = n;
          w.seed = t.default_seed;
          w.block = t.default_block;
          w.reps = reps;
          ASSERT_TRUE(client.load(ref, 2.0).ok);
          const LaunchOutcome want = client.launch(make_launch(t, w), 2.0);
          ASSERT_TRUE(want.ok);
          ASSERT_TRUE(client.load(c, 2.0).ok);
          const LaunchOutcome got = client.launch(make_launch(t, w), 2.0);
          ASSERT_TRUE(got.ok) << got.fault->describe();
          const long long g = got.values<long long>("count").at(0), a = want.values<long long>("count").at(0);
          std::printf("racy count guard=%d checked=%d n=%lld reps=%d: %lld of %lld (%.3f ms)\n", guard, checked, n,
                      reps, g, a, got.kernel_ms.empty() ? 0.0 : got.kernel_ms.back());
          EXPECT_LT(g, a) << "guard " << guard << " checked " << checked << " n " << n << " reps " << reps
                          << ": the race lost no update";
        }
    }
}

}  // namespace
}  // namespace cv::usercode
