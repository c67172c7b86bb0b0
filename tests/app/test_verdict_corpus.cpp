// The corpus of student kernels (tests/corpus, corpus/corpus.h) judged on the
// CPU backend, as the window would: compiled checked (the window's default),
// a whole kernel through the emulator, a per-particle function through the
// host compiler, each in its own runner, on its template's whole test set
// with a new seed. Every kernel is its own test, so ctest -j runs them side
// by side; the demo's default case runs at a small n to keep each short
// (the GPU's run, Kernels/CorpusGpu.*, judges at the template's size).
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

#include "corpus/corpus.h"
#include "usercode/compile/compile.h"
#include "usercode/client/runner_client.h"
#include "usercode/templates/template_registry.h"
#include "usercode/client/verdict.h"
#include "test_config.h"

namespace cv::usercode {
namespace {

// The default case's size here: at most a quarter of the emulator's default
// (sum3's n^3 and corelated's n^2 blocks stay short) and 4096 (the cases'
// own sizes stay). The time limit is generous: two tests at a time share the
// cores, and a slow launch here is not a wrong one.
constexpr long long kCorpusDefaultN = 4096;
constexpr double kCorpusTimeLimitS = 15.0;

class CorpusCpu : public ::testing::TestWithParam<corpus::Kernel> {};

// The kernel compiled as the window compiles it (checked) and a runner for it.
struct Judged {
  const TemplateSpec* t = nullptr;
  CompileResult c;
  std::string runner;
};

void prepare(const corpus::Kernel& k, Judged& j) {
  ASSERT_TRUE(k.header_error.empty()) << k.path << ": " << k.header_error;
  j.t = find_template(k.template_name);
  ASSERT_NE(j.t, nullptr) << k.path << ": unknown template " << k.template_name;
  CompileRequest req;
  req.source = k.source;
  req.file_name = k.name + ".cu";
  req.build = BuildKind::Cpu;
  req.checked = true;
  req.paths = test_config().paths;
  j.c = compile(req);
  ASSERT_TRUE(j.c.ok) << k.path << ": " << j.c.first_error() << j.c.error << "\n" << j.c.log;
  std::string why;
  j.runner = find_runner(test_config().paths.runner, &why);
  ASSERT_FALSE(j.runner.empty()) << why;
}

JudgeOptions corpus_options(const TemplateSpec& t) {
  JudgeOptions o;
  o.n = std::min({t.default_n, t.emulated_default_n / 4, kCorpusDefaultN});
  o.time_limit_s = kCorpusTimeLimitS;
  return o;
}

TEST_P(CorpusCpu, JudgedAsItsHeaderSays) {
  const corpus::Kernel& k = GetParam();
  if (find_host_compiler(test_config().paths).empty()) GTEST_SKIP() << "no host C++ compiler";
  Judged j;
  ASSERT_NO_FATAL_FAILURE(prepare(k, j));
  RunnerClient client(j.runner, Backend::Cpu);
  const Verdict v = judge(*j.t, j.c, client, fresh_seed(), corpus_options(*j.t));
  EXPECT_EQ(corpus::disagreement(k, *j.t, v), "") << k.path;
}

// A racy kernel is wrong on every verdict, not on some: ten verdicts, each
// on a new seed, every one wrong at a case its header names.
class RacyCpu : public ::testing::TestWithParam<corpus::Kernel> {};

TEST_P(RacyCpu, WrongInEveryOfTenVerdicts) {
  const corpus::Kernel& k = GetParam();
  if (find_host_compiler(test_config().paths).empty()) GTEST_SKIP() << "no host C++ compiler";
  Judged j;
  ASSERT_NO_FATAL_FAILURE(prepare(k, j));
  RunnerClient client(j.runner, Backend::Cpu);
  int wrong = 0;
  for (int run = 0; run < 10; ++run) {
    const Verdict v = judge(*j.t, j.c, client, fresh_seed(), corpus_options(*j.t));
    const std::string why = corpus::disagreement(k, *j.t, v);
    EXPECT_EQ(why, "") << k.path << " (verdict " << run + 1 << " of 10)";
    wrong += why.empty();
  }
  EXPECT_EQ(wrong, 10) << k.path;
}

std::string test_name(const ::testing::TestParamInfo<corpus::Kernel>& info) {
  std::string s = info.param.name;
  std::replace_if(s.begin(), s.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return s;
}

INSTANTIATE_TEST_SUITE_P(Kernels, CorpusCpu, ::testing::ValuesIn(corpus::all_kernels(corpus::root())), test_name);

std::vector<corpus::Kernel> racy_kernels() {
  std::vector<corpus::Kernel> all = corpus::all_kernels(corpus::root()), racy;
  std::copy_if(all.begin(), all.end(), std::back_inserter(racy), [](const corpus::Kernel& k) { return k.racy; });
  return racy;
}

INSTANTIATE_TEST_SUITE_P(Kernels, RacyCpu, ::testing::ValuesIn(racy_kernels()), test_name);

// The corpus holds what the project promises: at least 30 right and 30 wrong
// kernels, every template among them, every header well formed.
TEST(CorpusCpu, CoversEveryTemplateBothWays) {
  const std::vector<corpus::Kernel> all = corpus::all_kernels(corpus::root());
  const auto right = std::count_if(all.begin(), all.end(), [](const corpus::Kernel& k) { return k.correct; });
  EXPECT_GE(right, 30);
  EXPECT_GE(static_cast<long>(all.size()) - right, 30);
  for (const corpus::Kernel& k : all) EXPECT_EQ(k.header_error, "") << k.path;
  for (const TemplateSpec* t : template_specs()) {
    const bool any = std::any_of(all.begin(), all.end(), [&](const corpus::Kernel& k) { return k.template_name == t->name; });
    EXPECT_TRUE(any) << "no corpus kernel for " << t->name;
  }
  // Races of both kinds, every racy kernel a wrong one.
  EXPECT_GE(std::count_if(all.begin(), all.end(), [](const corpus::Kernel& k) { return k.lost_updates; }), 3);
  EXPECT_GE(std::count_if(all.begin(), all.end(), [](const corpus::Kernel& k) { return k.racy && !k.lost_updates; }), 3);
  for (const corpus::Kernel& k : all) EXPECT_FALSE(k.racy && k.correct) << k.path << ": a race judged right?";
}

}  // namespace
}  // namespace cv::usercode
