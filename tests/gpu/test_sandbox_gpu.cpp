// The NVRTC path for code from the network on a GPU: a submission compiled in
// the confined child (CompileRequest::isolate) loads and runs in the runner and
// gives the right count; a spelling of __has_include the scan cannot see finds
// no file of the machine.
#include <gtest/gtest.h>

#include "gpu/gpu_test_util.h"
#include "usercode/compile/compile.h"
#include "usercode/compile/guard_compile.h"
#include "usercode/client/runner_client.h"
#include "usercode/templates/template_registry.h"
#include "test_config.h"

namespace cv::usercode {
namespace {

TEST(SandboxGpu, AnIsolatedCompileRunsRightOnTheDevice) {
  CV_REQUIRE_GPU();
  CompileRequest req;
  req.build = BuildKind::Gpu;
  req.isolate = true;
  req.guard = true;
  req.paths = test_config().paths;
  req.source = read_template_source(*find_entry("count3_atomic"), test_config().paths);
  const CompileResult c = compile(req);
  ASSERT_TRUE(c.ok) << c.first_error() << c.error;
  std::cout << "[ sandbox ] " << c.sandbox << "\n";
  ASSERT_FALSE(guard::load_image(c).empty()) << "the guarded PTX (the runner's JIT compiles it) or a cubin";
  std::string why;
  RunnerClient client(find_runner(test_config().paths.runner, &why), Backend::Cuda);
  const LoadOutcome lo = client.load(c, 5.0);
  ASSERT_TRUE(lo.ok) << lo.error;
  Workload w;
  w.n = 1 << 20;
  w.block = {256, 1, 1};
  const LaunchOutcome out = client.launch(make_launch(*c.spec, w), 5.0);
  ASSERT_TRUE(out.ok) << out.fault->describe();
  EXPECT_TRUE(c.spec->check(w, out.read_back, Backend::Cuda).correct);
}

TEST(SandboxGpu, AnIsolatedCompileSeesNoFilesOfTheMachine) {
  CV_REQUIRE_GPU();
  CompileRequest req;
  req.build = BuildKind::Gpu;
  req.isolate = true;
  req.paths = test_config().paths;
  req.source = "// template: count3\n#define CV_CAT(a, b) a##b\n#define CV_HAS CV_CAT(__has_, include)\n"
               "#if CV_HAS(\"/etc/passwd\")\n#error the file exists\n#endif\n"
               "extern \"C\" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {}\n";
  const CompileResult c = compile(req);
  if (c.sandbox.find("landlock") == std::string::npos || c.sandbox.find("not active") != std::string::npos)
    GTEST_SKIP() << "NVRTC's process is not confined here: " << c.sandbox;
  EXPECT_TRUE(c.ok) << c.first_error() << c.error;
  EXPECT_EQ(c.log.find("the file exists"), std::string::npos) << c.log;
}

}  // namespace
}  // namespace cv::usercode
