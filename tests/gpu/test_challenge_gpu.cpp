// Leaderboard cheats against the challenge's judge on a GPU (NVRTC, the guard,
// the runner's CUDA events), at the template's own size: a remembered answer
// and a kernel that stops working after the check are wrong; an honest kernel
// is correct, its time from launches on fresh data, each answer compared (audited).
#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <cstdio>
#include <memory>
#include <string>

#include "challenge/judge.h"
#include "challenge/judge_audit.h"
#include "gpu_test_util.h"
#include "labs/reduce/reduce.h"
#include "test_config.h"
#include "usercode/client/runner_client.h"
#include "usercode/templates/template_registry.h"

using namespace cv::challenge;

namespace {

Verdict judge_on_gpu(const std::string& source, uint64_t seed) {
  JudgeSettings s;
  s.backend = cv::Backend::Cuda;
  s.paths = test_config().paths;
  s.explain = false;
  const JudgeRequest r{"count3", source, seed};
  Verdict v;
  const Compiled c = compile_stage(s, r);
  if (compile_failed(c, v)) return v;
  run_stage(s, r, c, judge_runner(s, cv::usercode::find_runner(s.paths.runner), 0), nullptr, v);
  return v;
}

const char* kSignature =
    "// template: count3\n"
    "extern \"C\" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {\n";
const char* kHonestBody =
    "  unsigned long long mine = 0;\n"
    "  for (unsigned long long i = cv::global_index(); i < data.size; i += cv::grid_threads())\n"
    "    mine += data[i] % 3 == 0;\n"
    "  if (mine) atomicAdd(&count[0], mine);\n"
    "}\n";

}  // namespace

TEST(ChallengeGpu, CheatsAreWrongAndAnHonestKernelIsTimedOnCheckedLaunches) {
  CV_REQUIRE_GPU();
  const cv::usercode::TemplateSpec* t = cv::usercode::find_template("count3");
  ASSERT_TRUE(t);
  const std::vector<int32_t> d = cv::reduce::make_data(static_cast<size_t>(t->default_n), t->default_seed);
  const auto answer = cv::reduce::cpu_threads(cv::reduce::Op::Count3, d.data(), d.size());
  const Verdict remembered = judge_on_gpu(
      std::string(kSignature) + "  if (cv::global_index() == 0) count[0] = " + std::to_string(answer) + "ull;\n}\n", 11);
  EXPECT_EQ(remembered.outcome, Verdict::Outcome::Wrong) << remembered.message;
  const Verdict lazy = judge_on_gpu(std::string("__device__ unsigned long long launches_seen;\n") + kSignature +
                                        "  if (atomicAdd(&launches_seen, 1ull) >= 2ull * cv::grid_threads()) return;\n" +
                                        kHonestBody,
                                    12);
  EXPECT_EQ(lazy.outcome, Verdict::Outcome::Wrong) << lazy.message;
  const Verdict honest = judge_on_gpu(std::string(kSignature) + kHonestBody, 13);
  ASSERT_EQ(honest.outcome, Verdict::Outcome::Correct) << honest.message;
  EXPECT_EQ(honest.audited_launches, audit_launches(*t, cv::Backend::Cuda));
  EXPECT_GT(honest.ms_median, 0.0);
  std::printf("honest count3 on the GPU: median %.4f ms (%d audited launches)\n", honest.ms_median,
              honest.audited_launches);
}

TEST(ChallengeGpu, ADevicePrintfReachesNoTerminal) {
  CV_REQUIRE_GPU();
  // The runner starts with this process's stdout (fd 1) unless the judge keeps it quiet.
  const std::string path = ::testing::TempDir() + "judge_gpu_stdout_" + std::to_string(getpid());
  const int file = open(path.c_str(), O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0600);
  ASSERT_GE(file, 0);
  std::fflush(stdout);
  const int saved = dup(1);
  dup2(file, 1);
  const Verdict v = judge_on_gpu(std::string(kSignature) +
                                     "  if (cv::global_index() < 64) printf(\"LOUD-KERNEL %d\\n\", (int)cv::global_index());\n" +
                                     kHonestBody,
                                 14);
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  close(file);
  std::stringstream got;
  got << std::ifstream(path).rdbuf();
  std::filesystem::remove(path);
  EXPECT_EQ(v.outcome, Verdict::Outcome::Correct) << v.message;
  EXPECT_EQ(got.str().find("LOUD-KERNEL"), std::string::npos) << got.str().substr(0, 200);
}
