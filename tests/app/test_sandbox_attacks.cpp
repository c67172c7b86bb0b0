// The attack kernels (tests/attacks/*.cu) through the real runner on the CPU
// backend: each is compiled for the host, loaded into a runner and launched,
// and must end the way its "// expect:" line says (stopped, with the
// forbidden operation named), after which a good kernel loads and runs
// correctly in the same RunnerClient. Where the system cannot install the
// seccomp policy the test skips, saying what was active.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "fountain/fountain.h"
#include "usercode/compile/compile.h"
#include "usercode/client/explain_process.h"
#include "usercode/client/explain_launch.h"
#include "usercode/client/runner_client.h"
#include "usercode/sandbox/asan.h"
#include "usercode/templates/fountain_args.h"
#include "usercode/templates/template_registry.h"
#include "test_config.h"

namespace cv::usercode {
namespace {

std::string attacks_dir() { return std::string(CUDAVIZ_SOURCE_DIR) + "/tests/attacks"; }

// Whether this machine's kernel takes 32-bit system calls from 64-bit code at
// all (`int $0x80`): a kernel built without IA-32 emulation (some VM kernels)
// raises SIGSEGV before any system call, so no filter ever sees it. Probed in a
// child process (getpid, i386 number 20).
bool ia32_syscalls() {
#if defined(__x86_64__)
  const pid_t p = fork();
  if (p == 0) {
    long r;
    __asm__ volatile("int $0x80" : "=a"(r) : "a"(20L) : "memory");
    _exit(r == getpid() ? 0 : 1);
  }
  int st = 0;
  if (p < 0 || waitpid(p, &st, 0) != p) return true;  // cannot tell: expect the filter's words
  return !(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV);
#else
  return true;
#endif
}

std::vector<std::string> attack_files() {
  std::vector<std::string> v;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(attacks_dir(), ec))
    if (e.path().extension() == ".cu") v.push_back(e.path().stem().string());
  std::sort(v.begin(), v.end());
  return v;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// "// expect: KIND[: WORDS]" -> {KIND, WORDS}.
std::pair<std::string, std::string> expectation(const std::string& source) {
  const std::string tag = "// expect: ";
  const size_t at = source.find(tag);
  if (at == std::string::npos) return {"", ""};
  const std::string line = source.substr(at + tag.size(), source.find('\n', at) - at - tag.size());
  const size_t colon = line.find(": ");
  if (colon == std::string::npos) return {line, ""};
  return {line.substr(0, colon), line.substr(colon + 2)};
}

// One launch of the template at a small size (the fountain's frame and parameters as the scene's).
LaunchRequest small_launch(const TemplateSpec& t) {
  Workload w;
  w.n = 4096;
  w.block = t.name == "fountain_particle" ? BlockShape{16, 16, 1} : BlockShape{256, 1, 1};
  w.reset = true;
  w.seed = 1;
  put(w, fountain_args::frame, fountain::Frame{});
  put(w, fountain_args::params, fountain::Params{});
  return make_launch(t, w);
}

class SandboxAttack : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (find_host_compiler(test_config().paths).empty()) GTEST_SKIP() << "no host C++ compiler";
    std::string why;
    runner_ = find_runner(test_config().paths.runner, &why);
    ASSERT_FALSE(runner_.empty()) << why;
  }
  // The shipped atomic count runs, and is right, after the attack.
  void good_kernel_runs(RunnerClient& client) {
    CompileRequest req;
    req.build = BuildKind::Cpu;
    req.source = read_template_source(*find_entry("count3_atomic"), test_config().paths);
    const CompileResult c = compile(req);
    ASSERT_TRUE(c.ok) << c.first_error() << c.error;
    const LoadOutcome lo = client.load(c, 5.0);
    ASSERT_TRUE(lo.ok) << lo.error;
    Workload w;
    w.n = 4096;
    w.block = {256, 1, 1};
    const LaunchOutcome out = client.launch(make_launch(*c.spec, w), 5.0);
    ASSERT_TRUE(out.ok) << out.fault->describe();
    EXPECT_TRUE(c.spec->check(w, out.read_back, Backend::Cpu).correct);
  }
  std::string runner_;
};

TEST_P(SandboxAttack, IsStoppedAndNamedAndTheNextKernelRuns) {
  const std::string source = read_file(attacks_dir() + "/" + GetParam() + ".cu");
  const auto [kind, words] = expectation(source);
  ASSERT_FALSE(kind.empty()) << GetParam() << " has no // expect: line";
  CompileRequest req;
  req.build = BuildKind::Cpu;
  req.source = source;
  req.file_name = GetParam() + ".cu";
  const CompileResult c = compile(req);
  RunnerClient client(runner_, Backend::Cpu);
  if (kind == "compile") {
    ASSERT_FALSE(c.ok);
    EXPECT_NE(c.first_error().find(words), std::string::npos) << c.first_error();
    good_kernel_runs(client);
    return;
  }
  ASSERT_TRUE(c.ok) << c.first_error() << c.error;
  const LoadOutcome lo = client.load(c, 5.0);
  std::cout << "[ sandbox ] " << (lo.sandbox.empty() ? "(the load failed: " + lo.error + ")" : lo.sandbox) << "\n";
  if (kind == "load") {
    // Load-time code is stopped by the seccomp policy: a sanitizer build runs
    // without it, so there the code really runs (static_init's fork forks, and
    // two processes' writes may garble the channel): only the next kernel is checked.
    if (cv::sandbox::kAddressSanitizer || (lo.ok && !lo.seccomp)) {
      good_kernel_runs(client);
      GTEST_SKIP() << "the seccomp policy is not in force here: " << (lo.ok ? lo.sandbox : lo.error);
    }
    ASSERT_FALSE(lo.ok);
    EXPECT_NE(lo.error.find(words), std::string::npos) << lo.error;
    good_kernel_runs(client);
    return;
  }
  ASSERT_TRUE(lo.ok) << lo.error;
  if (!lo.seccomp) GTEST_SKIP() << "the seccomp policy is not in force here: " << lo.sandbox;
  const double limit_s = kind == "time-out" ? 0.5 : 5.0;
  const LaunchOutcome out = client.launch(small_launch(*c.spec), limit_s);
  if (kind == "ok") {
    ASSERT_TRUE(out.ok) << out.fault->describe();
    const unsigned long long most = std::stoull(words.substr(words.rfind(' ') + 1));
    const std::vector<unsigned long long> count = out.values<unsigned long long>("count");
    ASSERT_EQ(count.size(), 1u);
    EXPECT_LE(count[0], most);
  } else {
    ASSERT_FALSE(out.ok) << "the attack ran to its end";
    ASSERT_TRUE(out.fault);
    std::string name = kind == "time-out" ? "time-out" : kind;
    std::string want = words;
    if (words == "another architecture" && !ia32_syscalls()) {
      // No 32-bit system calls on this kernel: the attack faults before it
      // reaches the filter, and is still stopped and named (the next kernel runs).
      name = "SIGSEGV";
      want = "segmentation fault";
    }
    EXPECT_EQ(out.fault->error_name, name) << out.fault->describe();
    EXPECT_NE(out.fault->explanation.find(want), std::string::npos) << out.fault->describe();
  }
  good_kernel_runs(client);
  if (kind != "forbidden" || (words == "another architecture" && !ia32_syscalls())) return;
  // Explain runs the same code in its own process's cell: stopped and named there too.
  ExplainOptions o;
  o.paths = test_config().paths;
  o.file_name = req.file_name;
  const emu::ExplainOutcome x = emu::run_explain_process(CUDAVIZ_EXPLAIN_BIN, make_explain_request(*c.spec, source, o));
  ASSERT_TRUE(x.ran) << x.error;
  EXPECT_FALSE(x.reply.value("ok", true));
  EXPECT_NE(x.reply.value("error", std::string()).find(words), std::string::npos) << x.reply.dump().substr(0, 600);
}

INSTANTIATE_TEST_SUITE_P(Attacks, SandboxAttack, ::testing::ValuesIn(attack_files()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace
}  // namespace cv::usercode
