// NVRTC for code from the network runs in a child process (nvrtc_child.h):
// the same PTX as in this process, no file of the machine visible to it, and
// stopped at its time limit. NVRTC compiles without a GPU, so these run on CPU machines.
#include <gtest/gtest.h>

#include "usercode/compile/compile.h"
#include "usercode/compile/nvrtc_child.h"
#include "usercode/templates/template_registry.h"
#include "test_config.h"

namespace cv::usercode {
namespace {

CompileResult gpu_compile(const std::string& source, bool isolate) {
  CompileRequest req;
  req.build = BuildKind::Gpu;
  req.arch = "sm_75";
  req.source = source;
  req.isolate = isolate;
  req.paths = test_config().paths;
  return compile(req);
}

class NvrtcChild : public ::testing::Test {
 protected:
  void SetUp() override {
    if (nvrtc_status().rfind("NVRTC ", 0) != 0) GTEST_SKIP() << nvrtc_status();
    runner_ = CUDAVIZ_NVRTC_BIN;
  }
  std::string runner_;
};

TEST_F(NvrtcChild, GivesThePtxOfTheAppsOwnCompile) {
  const std::string src = read_template_source(*find_entry("count3_atomic"), test_config().paths);
  const CompileResult here = gpu_compile(src, false), apart = gpu_compile(src, true);
  ASSERT_TRUE(here.ok) << here.first_error() << here.error;
  ASSERT_TRUE(apart.ok) << apart.first_error() << apart.error;
  std::cout << "[ sandbox ] " << apart.sandbox << "\n";
  EXPECT_EQ(apart.ptx, here.ptx);
  EXPECT_NE(apart.sandbox.find("NVRTC: "), std::string::npos);
}

TEST_F(NvrtcChild, ACompileErrorComesBackAtTheStudentsLine) {
  const CompileResult c = gpu_compile("// template: count3\nextern \"C\" __global__ void count3(cv::Span<const int> data, "
                                      "cv::Span<unsigned long long> count) {\n  undeclared = 1;\n}\n", true);
  ASSERT_FALSE(c.ok);
  EXPECT_EQ(c.first_error_line(), 3) << c.first_error();
}

// __has_include made by token pasting gets past the scan: NVRTC apart finds no file of the machine.
TEST_F(NvrtcChild, SeesNoFilesOfTheMachine) {
  const std::string src =
      "// template: count3\n#define CV_CAT(a, b) a##b\n#define CV_HAS CV_CAT(__has_, include)\n"
      "#if CV_HAS(\"/etc/passwd\")\n#error the file exists\n#endif\n"
      "extern \"C\" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {}\n";
  const CompileResult apart = gpu_compile(src, true);
  if (apart.sandbox.find("landlock") == std::string::npos || apart.sandbox.find("not active") != std::string::npos)
    GTEST_SKIP() << "NVRTC's process is not confined here: " << apart.sandbox;
  EXPECT_TRUE(apart.ok) << apart.first_error() << apart.error;
  EXPECT_EQ(apart.log.find("the file exists"), std::string::npos) << apart.log;
}

TEST_F(NvrtcChild, IsStoppedAtItsTimeLimitWithTheLimitNamed) {
  NvrtcJob job;
  job.program = "__global__ void k() {}\n";
  job.file_name = "kernel.cu";
  job.options = {"-arch=sm_75"};
  const NvrtcOutput o = nvrtc_in_child(job, runner_, test_config().paths.tmpdir, 0.001);
  EXPECT_FALSE(o.ran);
  EXPECT_NE(o.error.find("ran longer than"), std::string::npos) << o.error;
}

}  // namespace
}  // namespace cv::usercode
