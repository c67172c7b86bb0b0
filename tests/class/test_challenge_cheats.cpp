// The challenge's judge against the cleverest student (CPU backend: the host
// compiler, the runner's emulator in its cell): a kernel that writes the answer
// it remembered for the judge's first data, and one that counts its launches
// and does nothing once the first check is behind it, each pass bench kernel's
// one check and are found by the audited launches on fresh data; an honest
// kernel stays correct, timed on audited launches; a kernel's printf reaches no
// terminal; the GPU path's compile is isolated and a machine file included in
// three spellings never comes back; attack kernels (tests/attacks) are stopped
// and named and the same runner judges the next kernel.
#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <memory>
#include <string>

#include "challenge/judge.h"
#include "challenge/judge_audit.h"
#include "usercode/client/verdict.h"
#include "labs/reduce/reduce.h"
#include "test_config.h"
#include "usercode/client/runner_client.h"
#include "usercode/compile/compile.h"
#include "usercode/templates/template_registry.h"

using namespace cv::challenge;

namespace {

constexpr long long kN = 4096;

JudgeSettings cpu_settings() {
  JudgeSettings s;
  s.backend = cv::Backend::Cpu;
  s.paths = test_config().paths;
  s.n = kN;
  s.reps = 3;
  s.explain = false;
  return s;
}

// The kernel through the judge's compile and run stages, as the queue runs
// them (`runner`: the device's, kept across kernels; null: a new one).
Verdict judge(const std::string& source, uint64_t seed,
              std::shared_ptr<cv::usercode::RunnerClient> runner = nullptr) {
  const JudgeSettings s = cpu_settings();
  const JudgeRequest r{"count3", source, seed};
  Verdict v;
  const Compiled c = compile_stage(s, r);
  if (compile_failed(c, v)) return v;
  if (!runner) runner = judge_runner(s, cv::usercode::find_runner(s.paths.runner), 0);
  run_stage(s, r, c, runner, nullptr, v);
  return v;
}

std::string read_text(const std::string& path) {
  std::stringstream s;
  s << std::ifstream(path).rdbuf();
  return s.str();
}

bool can_judge() {
  return !cv::usercode::find_host_compiler(test_config().paths).empty() &&
         !cv::usercode::find_runner(test_config().paths.runner).empty();
}

const char* kHead = "// template: count3\n";
const char* kHonestBody =
    "  unsigned long long mine = 0;\n"
    "  for (unsigned long long i = cv::global_index(); i < data.size; i += cv::grid_threads())\n"
    "    mine += data[i] % 3 == 0;\n"
    "  if (mine) atomicAdd(&count[0], mine);\n"
    "}\n";
const char* kSignature =
    "extern \"C\" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {\n";

}  // namespace

TEST(ChallengeCheats, SeedsOfCheckedLaunchesDifferEachLaunchAndSubmission) {
  EXPECT_NE(audit_seed(7, 0), audit_seed(7, 1));
  EXPECT_NE(audit_seed(7, 0), audit_seed(8, 0));
  EXPECT_NE(audit_seed(7, 0) & 0xffffffffull, audit_seed(7, 1) & 0xffffffffull);
  const cv::usercode::TemplateSpec* count3 = cv::usercode::find_template("count3");
  const cv::usercode::TemplateSpec* fountain = cv::usercode::find_template("fountain_kernel");
  ASSERT_TRUE(count3 && fountain);
  EXPECT_GE(audit_launches(*count3, cv::Backend::Cuda), 3);
  EXPECT_EQ(audit_launches(*fountain, cv::Backend::Cpu), static_cast<int>(cv::usercode::verdict_cases(*fountain).size()));
}

TEST(ChallengeCheats, ARememberedAnswerIsWrongOnFreshData) {
  if (!can_judge()) GTEST_SKIP() << "no host C++ compiler or runner";
  const cv::usercode::TemplateSpec* t = cv::usercode::find_template("count3");
  ASSERT_TRUE(t);
  // The answer for the template's own data, as a student could read it off a first, honest submission.
  const std::vector<int32_t> d = cv::reduce::make_data(static_cast<size_t>(kN), t->default_seed);
  const auto answer = cv::reduce::cpu_threads(cv::reduce::Op::Count3, d.data(), d.size());
  const std::string cheat = std::string(kHead) + kSignature +
                            "  if (cv::global_index() == 0) count[0] = " + std::to_string(answer) + "ull;\n}\n";
  const Verdict v = judge(cheat, 12345);
  EXPECT_EQ(v.outcome, Verdict::Outcome::Wrong) << v.message;
  // Caught by the verdict's own fresh inputs (a case named) or by the audit after the timing.
  EXPECT_TRUE(v.message.find("fresh data") != std::string::npos || v.message.find("wrong for ") != std::string::npos)
      << v.message;
}

TEST(ChallengeCheats, AKernelThatStopsWorkingAfterTheCheckIsWrong) {
  if (!can_judge()) GTEST_SKIP() << "no host C++ compiler or runner";
  // Works on the first two launches (edit to running, the check), then returns at once.
  const std::string cheat = std::string(kHead) + "__device__ unsigned long long launches_seen;\n" + kSignature +
                            "  if (atomicAdd(&launches_seen, 1ull) >= 2ull * cv::grid_threads()) return;\n" +
                            kHonestBody;
  const Verdict v = judge(cheat, 99);
  EXPECT_EQ(v.outcome, Verdict::Outcome::Wrong) << v.message;
  // Caught by the verdict's own fresh inputs (a case named) or by the audit after the timing.
  EXPECT_TRUE(v.message.find("fresh data") != std::string::npos || v.message.find("wrong for ") != std::string::npos)
      << v.message;
}

TEST(ChallengeCheats, AnHonestKernelIsCorrectWithItsTimeFromCheckedLaunches) {
  if (!can_judge()) GTEST_SKIP() << "no host C++ compiler or runner";
  const Verdict v = judge(std::string(kHead) + kSignature + kHonestBody, 4242);
  ASSERT_EQ(v.outcome, Verdict::Outcome::Correct) << v.message;
  EXPECT_EQ(v.audited_launches, audit_launches(*cv::usercode::find_template("count3"), cv::Backend::Cpu));
  EXPECT_GT(v.ms_median, 0.0);
  EXPECT_LE(v.ms_min, v.ms_median);
  EXPECT_LE(v.ms_median, v.ms_max);
}

// The class shares one device: a slow kernel gets fewer timed launches (never
// under five), a fast one all it asked for.
TEST(ChallengeCheats, TheTimedLaunchesFitTheJudgesBudget) {
  if (!can_judge()) GTEST_SKIP() << "no host C++ compiler or runner";
  JudgeSettings s = cpu_settings();
  s.reps = 12;
  auto judged = [&](const std::string& body, long long n) {
    s.n = n;
    const JudgeRequest r{"count3", std::string(kHead) + kSignature + body, 77};
    Verdict v;
    const Compiled c = compile_stage(s, r);
    if (compile_failed(c, v)) return v;
    run_stage(s, r, c, judge_runner(s, cv::usercode::find_runner(s.paths.runner), 0), nullptr, v);
    return v;
  };
  const Verdict fast = judged(kHonestBody, 64);
  ASSERT_EQ(fast.outcome, Verdict::Outcome::Correct) << fast.message;
  EXPECT_EQ(fast.reps, 12);
  // 8M values: a launch takes milliseconds, far more than 20 ms / 12.
  const Verdict slow = judged(kHonestBody, 1ll << 23);
  ASSERT_EQ(slow.outcome, Verdict::Outcome::Correct) << slow.message;
  EXPECT_GE(slow.reps, 5);
  EXPECT_LT(slow.reps, 12) << "each launch " << slow.ms_median << " ms";
}

TEST(ChallengeCheats, AKernelsPrintfReachesNoTerminalOrIsStopped) {
  if (!can_judge()) GTEST_SKIP() << "no host C++ compiler or runner";
  // The runner starts with this process's stdout (fd 1) unless the judge keeps it quiet:
  // fd 1 on a file for the judging, then back. `(printf)` is the C library's own
  // (the emulator keeps the lines of `printf`, a macro, for the kernel tab).
  const std::string path = ::testing::TempDir() + "judge_stdout_" + std::to_string(getpid());
  const int file = open(path.c_str(), O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0600);
  ASSERT_GE(file, 0);
  std::fflush(stdout);
  const int saved = dup(1);
  dup2(file, 1);
  const std::string noisy = std::string(kHead) + kSignature +
                            "  if (cv::global_index() == 0) for (int k = 0; k < 1000; ++k) (printf)(\"LOUD-KERNEL %d\\n\", k);\n" +
                            kHonestBody;
  const Verdict v = judge(noisy, 7);
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  close(file);
  std::stringstream got;
  got << std::ifstream(path).rdbuf();
  std::filesystem::remove(path);
  // The runner's cell stops the C library's printf on the CPU backend (it looks at
  // stdout first: a forbidden file operation, named); a GPU's device printf runs
  // and is silenced by the quiet runner (ChallengeGpu). Either way nothing arrives.
  if (v.outcome == Verdict::Outcome::Fault)
    EXPECT_NE(v.message.find("forbidden"), std::string::npos) << v.message;
  else
    EXPECT_EQ(v.outcome, Verdict::Outcome::Correct) << v.message;
  EXPECT_EQ(got.str().find("LOUD-KERNEL"), std::string::npos) << got.str().substr(0, 200);
}

TEST(ChallengeCheats, SubmissionsCompileIsolatedAndAFileOfTheMachineNeverComesBack) {
  // The GPU path's compile runs here (NVRTC needs no GPU): in cudaviz-nvrtc, confined.
  JudgeSettings s;
  s.backend = cv::Backend::Cuda;
  s.paths = test_config().paths;
  const Compiled ok = compile_stage(s, {"count3", std::string(kHead) + kSignature + kHonestBody, 1});
  ASSERT_TRUE(ok.result->ok) << ok.result->error;
  EXPECT_NE(ok.result->sandbox.find("NVRTC"), std::string::npos) << ok.result->sandbox;  // isolated
  for (const char* include : {"#include \"/etc/passwd\"\n", "%:include \"/etc/passwd\"\n",
                              "#include \"/et\\\nc/passwd\"\n"}) {
    Verdict v;
    const Compiled c = compile_stage(s, {"count3", std::string(kHead) + include + kSignature + kHonestBody, 2});
    ASSERT_TRUE(compile_failed(c, v)) << include;
    std::string all = v.message;
    for (const Mark& m : v.marks) all += m.message;
    EXPECT_EQ(all.find("root:"), std::string::npos) << all;
    EXPECT_EQ(all.find("/bin/"), std::string::npos) << all;
  }
}

// Whether the runner's cell has its seccomp policy in force here (not in a
// sanitizer build: sandbox/cell.h), from loading an honest kernel.
bool cell_in_force(std::string& what) {
  cv::usercode::CompileRequest req;
  req.build = cv::usercode::BuildKind::Cpu;
  req.template_name = "count3";
  req.source = std::string(kHead) + kSignature + kHonestBody;
  req.paths = test_config().paths;
  const cv::usercode::CompileResult c = cv::usercode::compile(req);
  if (!c.ok) return false;
  cv::usercode::RunnerClient client(cv::usercode::find_runner(test_config().paths.runner), cv::Backend::Cpu);
  const cv::usercode::LoadOutcome lo = client.load(c, 5.0);
  what = lo.sandbox;
  return lo.ok && lo.seccomp;
}

TEST(ChallengeCheats, AttackKernelsAreStoppedAndNamedAndTheJudgeJudgesOn) {
  if (!can_judge()) GTEST_SKIP() << "no host C++ compiler or runner";
  if (std::string what; !cell_in_force(what)) GTEST_SKIP() << "the seccomp policy is not in force here: " << what;
  // tests/attacks: each file says what must stop it ("// expect: forbidden: WORDS").
  const auto runner = judge_runner(cpu_settings(), cv::usercode::find_runner(test_config().paths.runner), 0);
  for (const char* name : {"system", "fork", "open", "connect", "malloc_huge", "endless"}) {
    const std::string source = read_text(std::string(CUDAVIZ_SOURCE_DIR) + "/tests/attacks/" + name + ".cu");
    const size_t at = source.find("// expect: ");
    ASSERT_NE(at, std::string::npos) << name;
    std::string expect = source.substr(at + 11, source.find('\n', at) - at - 11);
    if (expect.rfind("forbidden: ", 0) == 0) expect = expect.substr(11);
    const Verdict v = judge(source, 5, runner);
    EXPECT_EQ(v.outcome, Verdict::Outcome::Fault) << name << ": " << v.message;
    EXPECT_NE(v.message.find(expect), std::string::npos) << name << ": " << v.message;
  }
  const Verdict honest = judge(std::string(kHead) + kSignature + kHonestBody, 6, runner);
  EXPECT_EQ(honest.outcome, Verdict::Outcome::Correct) << honest.message;
}
