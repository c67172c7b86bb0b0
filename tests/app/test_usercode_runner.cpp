// Your kernel's runner process, through the CPU path (a host-compiled
// per-particle function): the protocol, the result against the built-in
// fountain, and the promise that a segfault, an abort or an endless loop in
// the student's code ends only the runner, with the right words, and that the
// next load starts a fresh one.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <thread>

#include "fountain/fountain.h"
#include "usercode/compile/compile.h"
#include "usercode/client/runner_client.h"
#include "usercode/templates/fountain_args.h"
#include "usercode/templates/template_registry.h"
#include "usercode/client/user_kernel.h"
#include "test_config.h"

namespace cv::usercode {
namespace {

CompileResult cpu_build(const std::string& body) {
  CompileRequest req;
  req.build = BuildKind::Cpu;
  req.source = "// template: fountain_particle\n"
               "CV_HD void particle_step(cv::Particle& s, float vx, float vz, const cv::Frame& f,\n"
               "                         const cv::Params& p) {\n" +
               body + "\n}\n";
  return compile(req);
}

CompileResult template_build() {
  CompileRequest req;
  req.build = BuildKind::Cpu;
  req.source = read_template_source(*find_template("fountain_particle"), test_config().paths);
  return compile(req);
}

// One step of the fountain_particle template by its registered rules.
LaunchRequest step_request(unsigned count, bool reset, const BlockShape& block = {16, 16, 1},
                             const fountain::Frame& f = {}, bool read_back = true) {
  Workload w;
  w.n = count;
  w.block = block;
  w.reset = reset;
  w.seed = 7;
  w.read_back = read_back;
  put(w, fountain_args::frame, f);
  put(w, fountain_args::params, fountain::Params{});
  return make_launch(*find_template("fountain_particle"), w);
}

class UsercodeRunner : public ::testing::Test {
 protected:
  void SetUp() override {
    if (find_host_compiler(test_config().paths).empty()) GTEST_SKIP() << "no host C++ compiler";
    std::string why;
    path_ = find_runner(test_config().paths.runner, &why);
    if (path_.empty()) GTEST_FAIL() << why;
  }
  std::string path_;
};

TEST_F(UsercodeRunner, PerParticleTemplateMatchesTheBuiltInFountain) {
  const CompileResult c = template_build();
  ASSERT_TRUE(c.ok) << c.error << c.log;
  RunnerClient client(path_, Backend::Cpu);
  const LoadOutcome lo = client.load(c, 2.0);
  ASSERT_TRUE(lo.ok) << lo.error;
  constexpr unsigned kCount = 5000;  // a partial last row
  fountain::Params p;
  fountain::FountainCpu ref(kCount, fountain::Variant::Lean);
  ref.reset(p, 7);
  fountain::FrameClock clock(3);
  for (int step = 0; step < 700; ++step) {  // past max_age: every particle respawned
    const fountain::Frame f = clock.next(p);
    const bool check = step % 100 == 99;
    // The runner's own buffers ping-pong: the last step's output is the next input.
    const LaunchOutcome out = client.launch(step_request(kCount, step == 0, {16, 16, 1}, f, check), 2.0);
    ASSERT_TRUE(out.ok) << out.fault->describe();
    ASSERT_EQ(out.kernel_ms.size(), 1u);
    ref.step(f, p);
    if (!check) continue;
    const std::vector<float> positions = out.values<float>("out");
    ASSERT_EQ(positions.size(), 4u * kCount);
    int bad = 0;
    for (unsigned i = 0; i < kCount; ++i) {
      const float4 q = ref.vbo()[i];
      const float want[4] = {q.x, q.y, q.z, q.w};
      for (int k = 0; k < 4; ++k)
        if (std::fabs(positions[4 * i + k] - want[k]) > 1e-4f * (1 + std::fabs(want[k]))) ++bad;
    }
    EXPECT_EQ(bad, 0) << "step " << step;
  }
}

// A launch the runner cannot prepare (an unknown generator, a shared buffer it
// never got) is refused with the reason; the runner and the loaded kernel go on.
TEST_F(UsercodeRunner, ALaunchItCannotPrepareIsRefusedAndTheRunnerGoesOn) {
  const CompileResult c = template_build();
  ASSERT_TRUE(c.ok) << c.error << c.log;
  RunnerClient client(path_, Backend::Cpu);
  ASSERT_TRUE(client.load(c, 2.0).ok);
  LaunchRequest bad = step_request(1000, true);
  bad.args[2].span.from = SpanArg::From::Generate;  // vy from a generator that does not exist
  bad.args[2].span.generator = "teapot";
  bad.args[2].span.gen_n = 1000;
  LaunchOutcome out = client.launch(bad, 2.0);
  ASSERT_FALSE(out.ok);
  EXPECT_EQ(out.fault->error_name, "protocol");
  EXPECT_NE(out.fault->explanation.find("teapot"), std::string::npos) << out.fault->describe();
  EXPECT_TRUE(client.running());
  bad = step_request(1000, true);
  bad.args[0].span.from = SpanArg::From::Shared;  // a buffer the app never shared
  bad.args[0].span.shared_id = 12345;
  out = client.launch(bad, 2.0);
  ASSERT_FALSE(out.ok);
  EXPECT_NE(out.fault->explanation.find("shared buffer"), std::string::npos) << out.fault->describe();
  bad = step_request(1000, true);
  bad.module = "nothing_here";
  out = client.launch(bad, 2.0);
  ASSERT_FALSE(out.ok);
  EXPECT_NE(out.fault->explanation.find("no kernel is loaded as 'nothing_here'"), std::string::npos);
  EXPECT_TRUE(client.launch(step_request(1000, true), 2.0).ok);
  EXPECT_TRUE(client.running());
}

// Each broken function: the client reports the fault, the test process (the
// "app") is fine, and a fresh runner takes the next load.
void expect_fault(const std::string& path, const std::string& body, const std::string& name,
                  const std::string& words, double limit_s) {
  const CompileResult c = cpu_build(body);
  ASSERT_TRUE(c.ok) << c.error << c.log;
  RunnerClient client(path, Backend::Cpu);
  ASSERT_TRUE(client.load(c, limit_s).ok);
  const LaunchRequest r = step_request(1000, true, {8, 8, 1});
  const auto t0 = std::chrono::steady_clock::now();
  const LaunchOutcome out = client.launch(r, limit_s);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_FALSE(out.ok);
  ASSERT_TRUE(out.fault);
  EXPECT_EQ(out.fault->error_name, name) << out.fault->describe();
  EXPECT_NE(out.fault->explanation.find(words), std::string::npos) << out.fault->describe();
  EXPECT_EQ(out.fault->block, (BlockShape{8, 8, 1}));
  EXPECT_LT(s, limit_s + 1.0) << "the fault took " << s << " s to report";
  EXPECT_FALSE(client.running());
  // Restarted lazily: the good template runs in a new process.
  const CompileResult good = template_build();
  ASSERT_TRUE(client.load(good, 2.0).ok);
  EXPECT_TRUE(client.launch(r, 2.0).ok);
}

TEST_F(UsercodeRunner, SegfaultEndsOnlyTheRunner) {
  expect_fault(path_, "  *(volatile int*)nullptr = 1;", "SIGSEGV", "segmentation fault", 2.0);
}

TEST_F(UsercodeRunner, AbortEndsOnlyTheRunner) {
  expect_fault(path_, "  __builtin_abort();", "SIGABRT", "abort", 2.0);
}

TEST_F(UsercodeRunner, EndlessLoopIsStoppedAtTheTimeLimit) {
  expect_fault(path_, "  volatile int k = 0;\n  while (k == 0) {}", "time-out", "time limit (0.3 s)", 0.3);
}

// The progress page outlives a launch: blocks counted by the last one must not
// read as this one moving, or a kernel stuck in its first block is called slow.
TEST_F(UsercodeRunner, AnEndlessLaunchAfterAFinishedOneIsATimeOutNotSlow) {
  const TemplateSpec& count3 = *find_template("count3");
  auto build = [&](const std::string& body) {
    CompileRequest req;
    req.build = BuildKind::Cpu;
    req.template_name = "count3";
    req.source = "// template: count3\nextern \"C\" __global__ void count3(" + parameter_text(count3) +
                 ") {\n" + body + "\n}\n";
    return compile(req);
  };
  const CompileResult good = build("  if (threadIdx.x == 0) atomicAdd(&count[0], 1ull);");
  ASSERT_TRUE(good.ok) << good.error << good.log;
  const CompileResult endless = build("  volatile int k = 0;\n  while (k == 0) {}");
  ASSERT_TRUE(endless.ok) << endless.error << endless.log;
  Workload w;
  w.n = 64 * 256;  // 64 blocks finished by the good launch
  w.block = {256, 1, 1};
  RunnerClient client(path_, Backend::Cpu);
  for (int round = 0; round < 2; ++round) {  // the second round: a restarted runner, the same page
    ASSERT_TRUE(client.load(good, 2.0).ok);
    const LaunchOutcome fine = client.launch(make_launch(count3, w), 5.0, 5.0);
    ASSERT_TRUE(fine.ok) << fine.fault->describe();
    ASSERT_TRUE(client.load(endless, 2.0).ok);
    const LaunchOutcome out = client.launch(make_launch(count3, w), 0.3, 0.3);
    ASSERT_FALSE(out.ok);
    EXPECT_EQ(out.fault->error_name, "time-out") << out.fault->describe();
  }
}

TEST_F(UsercodeRunner, UserKernelFallsBackAndRecovers) {
  UserKernelOptions o;
  o.backend = Backend::Cpu;
  UserKernel uk(o);
  auto settle = [&] {
    for (int i = 0; i < 3000 && uk.status().state == UserKernelState::Compiling; ++i) {
      uk.poll();
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  };
  uk.submit("// template: fountain_particle\nCV_HD void particle_step(cv::Particle& s, float vx,\n"
            "  float vz, const cv::Frame& f, const cv::Params& p) { s.x += nope; }\n");
  settle();
  EXPECT_EQ(uk.status().state, UserKernelState::CompileFailed);
  EXPECT_NE(uk.status().headline.find("line 3"), std::string::npos) << uk.status().headline;
  EXPECT_NE(uk.status().fallback.find("built-in"), std::string::npos);
  EXPECT_FALSE(uk.feeds("fountain"));

  uk.submit(read_template_source(*find_template("fountain_particle"), test_config().paths));
  settle();
  ASSERT_EQ(uk.status().state, UserKernelState::Ready) << uk.status().fallback;
  EXPECT_TRUE(uk.feeds("fountain"));
  EXPECT_FALSE(uk.feeds("count3"));
  // The scene's call: one step by the template's rules, recorded.
  Workload w;
  w.n = 3000;
  w.block = {16, 16, 1};
  w.reset = true;
  const LaunchOutcome step = uk.launch(w);
  ASSERT_TRUE(step.ok) << step.fault->describe();
  EXPECT_EQ(step.values<float>("out").size(), 4u * 3000);
  EXPECT_GT(uk.status().edit_to_run_ms, 0);

  // A whole kernel on the CPU backend runs too: the emulator, same launch rules.
  uk.submit(read_template_source(*find_template("fountain_kernel"), test_config().paths));
  settle();
  ASSERT_EQ(uk.status().state, UserKernelState::Ready) << uk.status().fallback;
  const LaunchOutcome whole = uk.launch(w);
  ASSERT_TRUE(whole.ok) << whole.fault->describe();
  EXPECT_EQ(whole.values<float>("out").size(), 4u * 3000);
  EXPECT_EQ(whole.reply.value("emulated", false), true);
}

TEST(UsercodeFaultWords, NamesTheErrorInStudentWords) {
  KernelFault f;
  f.error_name = "cudaErrorIllegalAddress";
  f.kernel = "fountain_step";
  f.block = {16, 16, 1};
  f.grid[0] = 16, f.grid[1] = 16;
  f.explanation = "x";
  OutOfRange o;
  o.index = 70000;
  o.size = 65536;
  o.line = 14;
  o.thread[0] = 3;
  o.block[1] = 2;
  f.out_of_range = o;
  const std::string d = f.describe();
  EXPECT_NE(d.find("fountain_step <<<(16,16,1), (16,16,1)>>>"), std::string::npos) << d;
  EXPECT_NE(d.find("index 70000 of a buffer of 65536 elements at line 14"), std::string::npos) << d;
  EXPECT_NE(d.find("thread (3,0,0) of block (0,2,0)"), std::string::npos) << d;
}

}  // namespace
}  // namespace cv::usercode
