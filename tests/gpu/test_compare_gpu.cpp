// Comparisons that say which way, and the first compile as fast as the rest,
// on a GPU. bench kernel's line on shipped kernels names the same algorithm's
// built-in (tiled, shared), says faster or slower in words, carries the reps'
// spread and the guard's share. The prestarted runner (its CUDA context) is up
// before the first submit and serves it; the first edit-to-running is printed
// (RecordProperty), not asserted: the window run's summary reports it.
#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <thread>

#include "bench/bench.h"
#include "gpu/gpu_test_util.h"
#include "usercode/client/runner_client.h"
#include "usercode/client/user_kernel.h"
#include "usercode/templates/template_registry.h"
#include "test_config.h"

namespace cv::usercode {
namespace {

nlohmann::json bench_line(const std::string& example, long long n) {
  BenchOptions o;
  o.target = "kernel";
  o.variant = "yours";
  o.backend = "cuda";
  o.source = kernel_dir(test_config().paths) + "/" + find_entry(example)->file;  // a file: guard measured too
  o.n = n;
  o.reps = 10;
  o.paths = test_config().paths;
  std::ostringstream out, err;
  EXPECT_EQ(bench::run_bench(o, out, err), 0) << example << ": " << err.str() << out.str();
  return nlohmann::json::parse(out.str().substr(0, out.str().find('\n')));
}

TEST(CompareGpu, BenchKernelNamesTheSameAlgorithmAndSaysWhichWay) {
  CV_REQUIRE_GPU();
  const struct {
    const char* example;
    const char* same;
    long long n;
  } cases[] = {{"nbody_tiled", "tiled", 1 << 14}, {"reverse_shared", "shared", 1 << 22}, {"count3_shared", "shared_tree", 1 << 22}};
  for (const auto& c : cases) {
    const nlohmann::json line = bench_line(c.example, c.n);
    ASSERT_TRUE(line.contains("compare")) << line.dump();
    const nlohmann::json& cmp = line["compare"];
    EXPECT_EQ(cmp.value("same_algorithm", ""), c.same) << cmp.dump();
    const std::string words = cmp.value("vs_same", "");
    EXPECT_TRUE(words.find("slower than the built-in " + std::string(c.same)) != std::string::npos ||
                words.find("faster than the built-in " + std::string(c.same)) != std::string::npos ||
                words == "as fast as the built-in " + std::string(c.same))
        << cmp.dump();
    EXPECT_NE(cmp.value("guard_share", "").find("guard: "), std::string::npos) << cmp.dump();
    EXPECT_LE(line.value("ms_min", 0.0), line.value("ms_median", 0.0));
    EXPECT_LE(line.value("ms_median", 0.0), line.value("ms_max", 0.0));
    RecordProperty(std::string(c.example) + "_lines", cmp["lines"].dump());
  }
}

TEST(CompareGpu, PrestartedRunnerServesTheFirstEdit) {
  CV_REQUIRE_GPU();
  UserKernelOptions o;
  o.backend = Backend::Cuda;
  o.paths = test_config().paths;
  UserKernel uk(o);
  uk.prestart();
  uk.wait_prestarted();
  ASSERT_NE(uk.runner(), nullptr);
  ASSERT_TRUE(uk.runner()->running()) << uk.prestart_error();
  EXPECT_EQ(uk.runner()->hello().value("backend", ""), "cuda") << uk.runner()->hello().dump();
  const long pid = uk.runner()->pid();
  uk.submit(read_template_source(*find_template("fountain_kernel"), test_config().paths));
  for (int i = 0; i < 5000 && uk.status().state == UserKernelState::Compiling; ++i) {
    uk.poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_EQ(uk.status().state, UserKernelState::Ready) << uk.status().fallback;
  Workload w;
  w.n = 65536;
  w.block = {16, 16, 1};
  w.reset = true;
  w.read_back = false;
  const LaunchOutcome step = uk.launch(w);
  ASSERT_TRUE(step.ok) << step.fault->describe();
  EXPECT_EQ(uk.runner()->pid(), pid);
  EXPECT_GT(uk.status().first_edit_to_run_ms, 0);
  RecordProperty("runner_prestart_ms", std::to_string(uk.prestart_ms().value_or(0)));
  RecordProperty("first_edit_to_run_ms", std::to_string(uk.status().first_edit_to_run_ms));
  std::printf("runner_prestart_ms %.1f first_edit_to_run_ms %.1f\n", uk.prestart_ms().value_or(0),
              uk.status().first_edit_to_run_ms);
}

}  // namespace
}  // namespace cv::usercode
