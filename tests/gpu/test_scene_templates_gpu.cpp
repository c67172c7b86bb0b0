// The scene templates on the GPU: every swarm and n-body template and example
// run in the runner process and judged by the template's own check (the
// built-in swarm kernel step by step; the CPU twin's n-body accelerations),
// over block shapes that do and do not divide the particle grid; and the
// checks catch a wrong kernel.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gpu/gpu_test_util.h"
#include "usercode/compile/compile.h"
#include "usercode/client/runner_client.h"
#include "usercode/templates/template_registry.h"
#include "test_config.h"

namespace cv::usercode {
namespace {

std::string shipped(const std::string& name) {
  return read_template_source(*find_entry(name), test_config().paths);
}

// Compiles `source` for the device, loads it into a runner and runs its
// template's check from a reset; returns the check's verdict.
CheckResult run_check(const std::string& source, long long n, const BlockShape& b, std::string* why) {
  CompileRequest req;
  req.source = source;
  const CompileResult c = compile(req);
  if (!c.ok) {
    *why = "compile: " + c.error + c.log;
    return {};
  }
  std::string no_runner;
  const std::string path = find_runner(test_config().paths.runner, &no_runner);
  if (path.empty()) {
    *why = no_runner;
    return {};
  }
  RunnerClient client(path, Backend::Cuda);
  if (const LoadOutcome lo = client.load(c, 5.0); !lo.ok) {
    *why = "load: " + lo.error;
    return {};
  }
  const TemplateSpec& t = *c.spec;
  Workload w;
  w.n = n;
  w.block = b;
  w.seed = 3;
  LaunchOutcome last;
  for (int k = 0; k < std::max(1, t.check_steps); ++k) {
    w.step = k;
    w.reset = k == 0;
    w.read_back = k + 1 == std::max(1, t.check_steps);
    last = client.launch(make_launch(t, w), 5.0);
    if (!last.ok) {
      *why = last.fault ? last.fault->describe() : "the launch failed";
      return {};
    }
  }
  return t.check(w, last.read_back, Backend::Cuda);
}

TEST(SceneTemplatesGpu, SwarmTemplatesMatchTheBuiltInKernel) {
  CV_REQUIRE_GPU();
  for (const char* name : {"swarm_particle", "swarm_kernel"})
    for (BlockShape b : {BlockShape{16, 16, 1}, BlockShape{32, 8, 1}, BlockShape{7, 5, 1}}) {
      std::string why;
      const CheckResult r = run_check(shipped(name), 5000, b, &why);  // a partial last row
      EXPECT_TRUE(why.empty()) << name << " " << to_string(b) << ": " << why;
      EXPECT_TRUE(r.correct) << name << " " << to_string(b) << ": " << r.fields.dump();
    }
}

TEST(SceneTemplatesGpu, NBodyTemplateAndExamplesMatchTheCpuTwin) {
  CV_REQUIRE_GPU();
  for (const char* name : {"nbody_kernel", "nbody_allpairs", "nbody_tiled"})
    for (BlockShape b : {BlockShape{256, 1, 1}, BlockShape{96, 1, 1}, BlockShape{1024, 1, 1}}) {
      std::string why;
      const CheckResult r = run_check(shipped(name), 5001, b, &why);  // not a multiple of any block
      EXPECT_TRUE(why.empty()) << name << " " << to_string(b) << ": " << why;
      EXPECT_TRUE(r.correct) << name << " " << to_string(b) << ": " << r.fields.dump();
    }
}

// The checks can fail: a tile loop that skips the last tile, and a swarm
// steering the other way.
TEST(SceneTemplatesGpu, WrongKernelsAreCaught) {
  CV_REQUIRE_GPU();
  std::string tiled = shipped("nbody_tiled");
  const std::string loop = "base < n; base += nt";
  ASSERT_NE(tiled.find(loop), std::string::npos);
  tiled.replace(tiled.find(loop), loop.size(), "base + nt < n; base += nt");
  std::string why;
  CheckResult r = run_check(tiled, 5001, {256, 1, 1}, &why);
  EXPECT_TRUE(why.empty()) << why;
  EXPECT_FALSE(r.correct) << r.fields.dump();
  std::string swarm = shipped("swarm_kernel");
  const std::string push = "? p.attraction : -p.attraction)";
  ASSERT_NE(swarm.find(push), std::string::npos);
  swarm.replace(swarm.find(push), push.size(), "? -p.attraction : p.attraction)");
  r = run_check(swarm, 5000, {16, 16, 1}, &why);
  EXPECT_TRUE(why.empty()) << why;
  EXPECT_FALSE(r.correct) << r.fields.dump();
}

}  // namespace
}  // namespace cv::usercode
