// The corpus of student kernels (tests/corpus, corpus/corpus.h) judged on the
// GPU, as the window runs them: NVRTC for the device, guarded and checked,
// the template's whole test set with the demo's default case at the
// template's own size (capped at 2^20 so the suite stays short) and a new
// seed, then the race check on the CPU emulator for a right answer.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "corpus/corpus.h"
#include "gpu/gpu_test_util.h"
#include "usercode/compile/compile.h"
#include "usercode/client/runner_client.h"
#include "usercode/templates/template_registry.h"
#include "usercode/client/verdict.h"
#include "usercode/client/race_check.h"
#include "test_config.h"

namespace cv::usercode {
namespace {

class CorpusGpu : public ::testing::TestWithParam<corpus::Kernel> {};

TEST_P(CorpusGpu, JudgedAsItsHeaderSays) {
  CV_REQUIRE_GPU();
  const corpus::Kernel& k = GetParam();
  ASSERT_TRUE(k.header_error.empty()) << k.path << ": " << k.header_error;
  const TemplateSpec* t = find_template(k.template_name);
  ASSERT_NE(t, nullptr) << k.path;
  CompileRequest req;
  req.source = k.source;
  req.file_name = k.name + ".cu";
  req.checked = true;
  req.guard = true;
  req.paths = test_config().paths;
  const CompileResult c = compile(req);
  ASSERT_TRUE(c.ok) << k.path << ": " << c.first_error() << c.error << "\n" << c.log;
  std::string why;
  const std::string runner = find_runner(test_config().paths.runner, &why);
  ASSERT_FALSE(runner.empty()) << why;
  RunnerClient client(runner, Backend::Cuda);
  JudgeOptions o;
  o.n = std::min(t->default_n, sanitizer_run() ? 4096ll : 1ll << 20);
  o.time_limit_s = 2.0;
  Verdict v = judge(*t, c, client, fresh_seed(), o);
  // As the kernel tab and bench kernel judge on a GPU: a right answer is then
  // checked for races on the CPU emulator (race_check.h), which the device
  // may not show at these sizes.
  if (v.correct) add_race_case(v, check_races(*t, k.source, test_config().paths, v.seed));
  EXPECT_EQ(corpus::disagreement(k, *t, v), "") << k.path;
  std::printf("corpus %s: %s (%.1f ms)\n", k.name.c_str(), v.summary().c_str(), v.ms);
}

std::string test_name(const ::testing::TestParamInfo<corpus::Kernel>& info) {
  std::string s = info.param.name;
  std::replace_if(s.begin(), s.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return s;
}

INSTANTIATE_TEST_SUITE_P(Kernels, CorpusGpu, ::testing::ValuesIn(corpus::all_kernels(corpus::root())), test_name);

// The device run reads the corpus from its copy of the tree
// (CUDAVIZ_CORPUS_DIR): an empty folder would judge nothing and pass.
TEST(CorpusGpuFound, TheCorpusIsThere) {
  EXPECT_GE(corpus::all_kernels(corpus::root()).size(), 60u) << corpus::root();
}

}  // namespace
}  // namespace cv::usercode
