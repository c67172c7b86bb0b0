// "run your kernel" in the labs window (bench/kernel_action.h), without a GPU:
// which labs offer it, the sentences that disable it, the jobs it builds, the
// panel refusing it on the CPU backend, and a failed bench-kernel run turned
// into the results row "yours" with its error (a compile error, the CPU backend).
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "bench/bench.h"
#include "bench/kernel_action.h"
#include "labs/lab_worker.h"
#include "ui/kernel_source.h"
#include "ui/lab_panel.h"
#include "usercode/client/runner_client.h"
#include "usercode/client/user_kernel.h"
#include "usercode/templates/template_registry.h"
#include "test_config.h"

namespace {

using cv::Backend;
using cv::BenchOptions;
using namespace std::chrono_literals;

std::string shipped(const std::string& name) {
  return cv::usercode::read_template_source(*cv::usercode::find_entry(name), test_config().paths);
}

BenchOptions fields_with(const std::string& lab, std::optional<std::string> text) {
  BenchOptions f;
  f.target = lab;
  f.source_text = std::move(text);
  f.source = "my_kernel.cu";
  return f;
}

TEST(LabYourKernel, OfferedOnlyByLabsAStudentTemplateRunsOn) {
  for (const std::string& lab : cv::LabPanel::lab_names()) {
    const cv::bench::LabAction* a = cv::bench::find_target(lab)->lab.action(cv::bench::kYourKernelAction);
    // A lab offers it exactly when a registered template feeds it.
    const bool has_template = !cv::usercode::templates_feeding(lab).empty();
    EXPECT_EQ(a != nullptr, has_template) << lab;
    if (a) EXPECT_TRUE(a->unavailable) << lab;
  }
  EXPECT_TRUE(cv::bench::find_target("count3")->lab.action(cv::bench::kYourKernelAction));
  EXPECT_TRUE(cv::bench::find_target("pi")->lab.action(cv::bench::kYourKernelAction));
  // Every lab of the documents has a template now (usercode/templates/).
  for (const char* lab : {"reduce", "reverse", "sum3", "corelated"})
    EXPECT_TRUE(cv::bench::find_target(lab)->lab.action(cv::bench::kYourKernelAction)) << lab;
}

TEST(LabYourKernel, DisabledWithTheReasonUnlessTheTabHoldsAKernelOfTheLabsTemplate) {
  using cv::bench::your_kernel_unavailable;
  const std::string count3 = shipped("count3"), pi = shipped("pi"), fountain = shipped("fountain_kernel");
  auto why = your_kernel_unavailable("count3", fields_with("count3", std::nullopt), Backend::Cuda);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("holds no kernel"), std::string::npos) << *why;
  why = your_kernel_unavailable("count3", fields_with("count3", "  \n"), Backend::Cuda);
  ASSERT_TRUE(why);
  why = your_kernel_unavailable("count3", fields_with("count3", fountain), Backend::Cuda);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("holds a fountain_kernel kernel; this lab runs count3 kernels"), std::string::npos) << *why;
  why = your_kernel_unavailable("pi", fields_with("pi", count3), Backend::Cuda);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("holds a count3 kernel; this lab runs pi kernels"), std::string::npos) << *why;
  why = your_kernel_unavailable("count3", fields_with("count3", "int x;\n"), Backend::Cuda);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("// template: count3"), std::string::npos) << *why;
  // An example of the template (the racy count) is a count3 kernel too.
  EXPECT_FALSE(your_kernel_unavailable("count3", fields_with("count3", shipped("count3_racy")), Backend::Cuda));
  EXPECT_FALSE(your_kernel_unavailable("count3", fields_with("count3", count3), Backend::Cuda));
  EXPECT_FALSE(your_kernel_unavailable("pi", fields_with("pi", pi), Backend::Cuda));
  // The CPU backend runs whole kernels in the emulator: not refused.
  EXPECT_FALSE(your_kernel_unavailable("count3", fields_with("count3", count3), Backend::Cpu));
  EXPECT_FALSE(your_kernel_unavailable("pi", fields_with("pi", pi), Backend::Cpu));
  // A data file: yours runs on the generated data only.
  BenchOptions with_input = fields_with("count3", count3);
  with_input.input = "/tmp/data.txt";
  why = your_kernel_unavailable("count3", with_input, Backend::Cuda);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("clear the input"), std::string::npos) << *why;
}

TEST(LabYourKernel, JobsAreTheLabsRunThenBenchKernelOnTheTabsTextWithTheLabsSize) {
  const cv::bench::LabAction* a = cv::bench::find_target("count3")->lab.action(cv::bench::kYourKernelAction);
  ASSERT_TRUE(a);
  BenchOptions f = fields_with("count3", shipped("count3_atomic"));
  f.n = 1000;
  f.block = cv::BlockShape{128, 1, 1};
  f.reps = 3;
  const std::vector<BenchOptions> jobs = a->jobs(f, Backend::Cuda);
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0].target, "count3");
  EXPECT_EQ(jobs[0].variant, "all");
  EXPECT_FALSE(jobs[0].source_text);
  EXPECT_EQ(jobs[0].n, 1000);
  EXPECT_EQ(jobs[1].target, "kernel");
  EXPECT_EQ(jobs[1].variant, "yours");
  EXPECT_EQ(jobs[1].n, 1000);
  EXPECT_EQ(jobs[1].block->x, 128);
  EXPECT_EQ(jobs[1].reps, 3);
  EXPECT_EQ(jobs[1].source_text, f.source_text);
  EXPECT_EQ(jobs[1].source, "my_kernel.cu");
  EXPECT_FALSE(jobs[1].template_name);  // the text's first line names it
  EXPECT_TRUE(jobs[1].checked);         // as the window compiles it
  // No n in the field: the lab's own default, so yours runs on the lab's data.
  const cv::bench::LabAction* p = cv::bench::find_target("pi")->lab.action(cv::bench::kYourKernelAction);
  const std::vector<BenchOptions> pj = p->jobs(fields_with("pi", shipped("pi")), Backend::Cuda);
  ASSERT_EQ(pj.size(), 2u);
  EXPECT_EQ(pj[1].n, 1ll << 26);
  EXPECT_FALSE(pj[0].n);
}

TEST(LabYourKernel, ThePanelOffersItOnTheCpuBackendForTheLabsTemplateOnly) {
  cv::KernelSource source;
  source.start_from(shipped("count3"), "my_count3.cu");
  cv::LabPanel panel(Backend::Cpu);
  cv::LabSettings s;
  s.lab = "count3";
  ASSERT_FALSE(panel.apply_settings(s));
  // Without the kernel tab: no kernel.
  auto refused = panel.refused_actions();
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_NE(refused[0].second.find("holds no kernel"), std::string::npos);
  // With it: a whole kernel runs on the CPU backend (the emulator), so nothing is refused.
  panel.set_kernel_source(&source, test_config().paths);
  EXPECT_TRUE(panel.refused_actions().empty());
  // Another lab refuses it for its own template: the tab holds a count3 kernel.
  s.lab = "sum3";
  ASSERT_FALSE(panel.apply_settings(s));
  refused = panel.refused_actions();
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_NE(refused[0].second.find("this lab runs sum3 kernels"), std::string::npos) << refused[0].second;
  const auto err = panel.run_action(cv::bench::kYourKernelAction);
  ASSERT_TRUE(err);
  EXPECT_EQ(*err, refused[0].second);
  EXPECT_FALSE(panel.running());
}

// Runs one bench-kernel job on the lab runner and returns its rows.
std::vector<nlohmann::ordered_json> run_kernel_job(const std::string& text, Backend backend,
                                                   std::shared_ptr<cv::usercode::RunnerClient> app_runner = {}) {
  BenchOptions job = fields_with("kernel", text);
  job.runner = std::move(app_runner);
  job.target = "kernel";
  job.variant = "yours";
  job.n = 1000;
  job.reps = 1;
  job.checked = true;
  job.paths = test_config().paths;
  cv::labs::LabWorker runner;
  EXPECT_FALSE(runner.start({job}, backend));
  const auto end = std::chrono::steady_clock::now() + 60s;
  while (runner.running() && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(10ms);
  EXPECT_EQ(runner.state(), cv::RunState::Done) << runner.error();
  return runner.results();
}

TEST(LabYourKernel, ACompileErrorIsTheRowsErrorAtTheStudentsLine) {
  const auto rows = run_kernel_job(
      "// template: count3\n"
      "extern \"C\" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {\n"
      "  undeclared_name += 1;\n"
      "}\n",
      Backend::Cpu);
  ASSERT_EQ(rows.size(), 1u);
  const auto& r = rows[0];
  EXPECT_EQ(r.value("variant", ""), "yours");
  ASSERT_TRUE(r.contains("error"));
  EXPECT_NE(r["error"].get<std::string>().find("my_kernel.cu:3"), std::string::npos) << r.dump();
  EXPECT_EQ(r.value("error_line", 0), 3) << r.dump();
  EXPECT_TRUE(r["correct"].is_null());
  EXPECT_EQ(r.value("checked", false), true);
}

TEST(LabYourKernel, AWholeKernelOnTheCpuBackendRunsInTheEmulatorWithTheRightAnswer) {
  const auto rows = run_kernel_job(shipped("count3"), Backend::Cpu);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_FALSE(rows[0].contains("error")) << rows[0].dump();
  EXPECT_EQ(rows[0].value("template", ""), "count3");
  EXPECT_EQ(rows[0].value("emulated", false), true) << rows[0].dump();
  EXPECT_EQ(rows[0]["correct"], true) << rows[0].dump();
}

// One runner per app: a lab run goes through the app's runner process (the
// kernel tab's UserKernel's) as a module of its own, so the kernel the scene
// runs stays loaded and runs after it.
TEST(LabYourKernel, ALabRunUsesTheAppsRunnerAndLeavesTheScenesKernelLoaded) {
  if (cv::usercode::find_host_compiler(test_config().paths).empty()) GTEST_SKIP() << "no host C++ compiler";
  cv::usercode::UserKernelOptions o;
  o.backend = Backend::Cpu;
  o.paths = test_config().paths;
  cv::usercode::UserKernel uk(o);
  uk.submit(shipped("fountain_particle"));
  for (int i = 0; i < 3000 && uk.status().state == cv::usercode::UserKernelState::Compiling; ++i) {
    uk.poll();
    std::this_thread::sleep_for(2ms);
  }
  ASSERT_EQ(uk.status().state, cv::usercode::UserKernelState::Ready) << uk.status().fallback;
  const std::shared_ptr<cv::usercode::RunnerClient> runner = uk.shared_runner();
  ASSERT_TRUE(runner);
  EXPECT_EQ(runner.get(), uk.runner());
  // The labs window hands this client to its jobs (LabPanel::set_kernel_source's user_kernel).
  const auto rows = run_kernel_job(shipped("fountain_particle"), Backend::Cpu, runner);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_FALSE(rows[0].contains("error")) << rows[0].dump();
  EXPECT_EQ(rows[0].value("correct", false), true) << rows[0].dump();
  EXPECT_TRUE(runner->running()) << "the app's runner did the run (bench kernel starts no process of its own)";
  // The editor's module is still there: the scene's next step runs in the same process.
  cv::usercode::Workload w;
  w.n = 1000;
  w.block = {16, 16, 1};
  w.reset = true;
  const cv::usercode::LaunchOutcome step = uk.launch(w);
  ASSERT_TRUE(step.ok) << step.fault->describe();
  EXPECT_EQ(step.values<float>("out").size(), 4000u);
}

TEST(LabYourKernel, AFailureRowKeepsTheLineAndSaysWhy) {
  nlohmann::ordered_json line = {{"bench", "kernel"}, {"variant", "yours"}};
  const cv::bench::TargetFailure f("SIGSEGV: the kernel read outside its data", line, "", 1);
  const nlohmann::ordered_json row = cv::labs::failure_row(f);
  EXPECT_EQ(row.value("variant", ""), "yours");
  EXPECT_EQ(row.value("error", ""), "SIGSEGV: the kernel read outside its data");
  EXPECT_TRUE(row["correct"].is_null());
}

}  // namespace
