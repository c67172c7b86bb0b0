// The verdict (usercode/client/verdict.h) on the CPU backend: the test set's cases
// per template, the seed that reproduces a failure, fresh inputs per verdict,
// the first failing case named with its element, expected and got (NaN named),
// the verdict's state apart from a scene's in the same runner, the edge data,
// bench kernel's fields, and the kernel tab's UserKernel judging once loaded.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "bench/bench.h"
#include "usercode/compile/compile.h"
#include "usercode/wire/data_generators.h"
#include "usercode/wire/edge_data.h"
#include "usercode/client/runner_client.h"
#include "usercode/templates/template_registry.h"
#include "usercode/templates/check_parts.h"
#include "usercode/client/user_kernel.h"
#include "usercode/client/verdict.h"
#include "usercode/client/race_check.h"
#include "usercode/client/judge_job.h"
#include "corpus/corpus.h"
#include "test_config.h"

namespace cv::usercode {
namespace {

bool no_host_compiler() { return find_host_compiler(test_config().paths).empty(); }

CompileResult host_build(const std::string& src) {
  CompileRequest req;
  req.source = src;
  req.build = BuildKind::Cpu;
  req.paths = test_config().paths;
  return compile(req);
}

std::unique_ptr<RunnerClient> cpu_runner() {
  std::string why;
  const std::string path = find_runner(test_config().paths.runner, &why);
  if (path.empty()) throw std::runtime_error(why);
  return std::make_unique<RunnerClient>(path, Backend::Cpu);
}

Verdict judge_source(const std::string& src, uint64_t seed, long long n = 4096) {
  const CompileResult c = host_build(src);
  if (!c.ok) throw std::runtime_error(c.first_error() + c.error + c.log);
  auto runner = cpu_runner();
  JudgeOptions o;
  o.n = n;
  return judge(*c.spec, c, *runner, seed, o);
}

const char* kRemembered =
    "// template: count3\n"
    "extern \"C\" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {\n"
    "  if (cv::global_index() == 0) count[0] = 7777;\n"
    "}\n";

TEST(Verdict, EveryTemplateDeclaresItsCasesDefaultFirst) {
  for (const TemplateSpec* t : template_specs()) {
    const std::vector<VerdictCase> cases = verdict_cases(*t);
    ASSERT_FALSE(cases.empty()) << t->name;
    EXPECT_EQ(cases.front().name, "the demo's default") << t->name;
    EXPECT_EQ(cases.front().n, 0) << t->name << ": the default case runs at the workload's n";
    EXPECT_GE(cases.size(), 5u) << t->name << ": sizes and edges beyond the default";
    std::vector<std::string> names;
    for (const VerdictCase& c : cases) names.push_back(c.name);
    std::sort(names.begin(), names.end());
    EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end()) << t->name << ": a name twice";
    // A size that is a multiple of no block: 1, a prime, or less than a warp.
    EXPECT_TRUE(std::any_of(cases.begin(), cases.end(), [](const VerdictCase& c) { return c.n == 1; })) << t->name;
  }
}

TEST(Verdict, ARememberedAnswerFailsTheDefaultCaseWithItsElement) {
  if (no_host_compiler()) GTEST_SKIP() << "no host C++ compiler";
  const Verdict v = judge_source(kRemembered, 42);
  EXPECT_TRUE(v.judged);
  EXPECT_FALSE(v.correct);
  const CaseOutcome* f = v.failed();
  ASSERT_NE(f, nullptr) << v.summary();
  EXPECT_EQ(f->name, "the demo's default");
  ASSERT_TRUE(f->mismatch);
  EXPECT_EQ(f->mismatch->element, "count[0]");
  EXPECT_EQ(f->mismatch->got, "7777");
  EXPECT_EQ(v.seed, 42u);
  EXPECT_NE(v.summary().find("wrong for the demo's default: count[0] is 7777, expected "), std::string::npos)
      << v.summary();
  EXPECT_NE(v.summary().find("(seed 42)"), std::string::npos) << v.summary();
}

// The cases bench kernel makes ready while the kernel compiles are the cases
// judge() would make: the same workloads, and checks that say the same of a
// read-back (here one with nothing in it: wrong, or right where the answer
// is 0); and a verdict judged with them is
// the verdict judged without.
TEST(Verdict, CasesPreparedBeforeTheLaunchAreTheCasesMadeAfterIt) {
  JudgeOptions o;
  o.n = 3000;  // every template's own sizes for the rest
  for (const TemplateSpec* t : template_specs()) {
    const PreparedVerdict ready = prepare_verdict(*t, Backend::Cpu, 99, o);
    const std::vector<PreparedCase>& made = ready.get();
    const std::vector<VerdictCase> cases = verdict_cases(*t);
    ASSERT_EQ(made.size(), cases.size()) << t->name;
    const bool has_prepare =
        t->prepare || std::any_of(cases.begin(), cases.end(), [](const VerdictCase& c) { return bool(c.prepare); });
    EXPECT_TRUE(has_prepare || t->name == "reverse") << t->name << ": a reference to make before the launch";
    for (size_t k = 0; k < cases.size(); ++k) {
      ASSERT_TRUE(made[k].error.empty()) << t->name << " " << cases[k].name << ": " << made[k].error;
      const Workload& w = made[k].workload;
      if (k == 0) {  // the default case: the workload bench launches first
        const Workload first = default_workload(*t, Backend::Cpu, 99, o);
        EXPECT_EQ(w.n, first.n) << t->name;
        EXPECT_EQ(w.seed, first.seed) << t->name;
        EXPECT_EQ(w.init, first.init) << t->name;
      }
      const Check plain = cases[k].check ? cases[k].check : t->check;
      const CheckResult a = made[k].check(w, ReadBack{}, Backend::Cpu), b = plain(w, ReadBack{}, Backend::Cpu);
      EXPECT_EQ(a.correct, b.correct) << t->name << " " << cases[k].name;
      ASSERT_EQ(a.mismatch.has_value(), b.mismatch.has_value()) << t->name << " " << cases[k].name;
      if (a.mismatch) EXPECT_EQ(a.mismatch->element, b.mismatch->element) << t->name << " " << cases[k].name;
      EXPECT_EQ(a.fields.dump(), b.fields.dump()) << t->name << " " << cases[k].name;
    }
  }
  if (no_host_compiler()) GTEST_SKIP() << "no host C++ compiler (the verdict through the runner)";
  const CompileResult c = host_build(kRemembered);
  ASSERT_TRUE(c.ok) << c.first_error();
  auto runner = cpu_runner();
  o.n = 4096;
  const Verdict plain = judge(*c.spec, c, *runner, 5, o);
  o.prepared = prepare_verdict(*c.spec, Backend::Cpu, 5, o);
  const Verdict prepared = judge(*c.spec, c, *runner, 5, o);
  EXPECT_FALSE(prepared.correct);
  EXPECT_EQ(prepared.summary(), plain.summary());
}

// The CPU's verdict build made ahead (beside the kernel's own compile) serves
// only the kernel it was made for: a racy kernel loaded after a right one's
// build was started is judged by its own verdict build, and so wrong.
TEST(Verdict, AVerdictBuildMadeAheadServesOnlyItsOwnKernel) {
  if (no_host_compiler()) GTEST_SKIP() << "no host C++ compiler";
  const std::string racy =
      "// template: count3\n"
      "extern \"C\" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {\n"
      "  const unsigned long long i = cv::global_index();\n"
      "  if (i < data.size && data[i] % 3 == 0) count[0] = count[0] + 1;  // lost updates\n"
      "}\n";
  auto request = [](const std::string& src) {
    CompileRequest req;
    req.source = src;
    req.build = BuildKind::Cpu;
    req.paths = test_config().paths;
    return req;
  };
  auto runner = cpu_runner();
  JudgeOptions o;
  o.n = 4096;
  runner->build_verdict_ahead(o.module, request(read_template_source(*find_template("count3"), test_config().paths)));
  const CompileResult c = compile(request(racy));
  ASSERT_TRUE(c.ok) << c.first_error();
  Verdict v = judge(*c.spec, c, *runner, 11, o);
  EXPECT_FALSE(v.correct) << "judged by another kernel's verdict build: " << v.summary();
  runner->build_verdict_ahead(o.module, request(racy));  // its own, made ahead
  v = judge(*c.spec, c, *runner, 12, o);
  EXPECT_FALSE(v.correct) << v.summary();
  EXPECT_NE(v.summary().find("wrong"), std::string::npos) << v.summary();
}

// A GPU may not show a race: the race check judges the source on the CPU
// emulator's schedules, where the corpus's racy kernels are wrong every time
// and a right kernel passes; a per-item function has no threads to race.
TEST(Verdict, TheRaceCheckFindsRacesTheGpuMayNotShow) {
  if (no_host_compiler()) GTEST_SKIP() << "no host C++ compiler";
  auto read = [](const std::string& rel) {
    std::ifstream f(std::string(CUDAVIZ_SOURCE_DIR) + "/" + rel);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  };
  const PathConfig& paths = test_config().paths;
  const std::vector<corpus::Kernel> kernels = corpus::all_kernels(corpus::root());
  for (const char* racy : {"count3_shuffle_after_exit", "nbody_kernel_tile_no_second_sync", "count3_racy_increment"}) {
    const auto k = std::find_if(kernels.begin(), kernels.end(), [&](const corpus::Kernel& c) { return c.name == racy; });
    ASSERT_NE(k, kernels.end()) << racy;
    const std::string src = k->source;
    const TemplateSpec* t = find_template(src.substr(13, src.find('\n') - 13));  // "// template: NAME"
    ASSERT_NE(t, nullptr) << racy;
    const RaceCheck r = check_races(*t, src, paths, fresh_seed());
    ASSERT_TRUE(r.outcome) << racy << ": " << r.not_run;
    EXPECT_NE(r.outcome->status, CaseOutcome::Status::Passed) << racy;
    EXPECT_EQ(r.outcome->name.rfind("races (the CPU emulator's schedules): ", 0), 0u) << r.outcome->name;
    Verdict v;
    v.judged = v.correct = true;  // as the GPU's test set left it
    add_race_case(v, r);
    EXPECT_FALSE(v.correct);
    EXPECT_NE(v.summary().find("races (the CPU emulator's schedules)"), std::string::npos) << v.summary();
    EXPECT_EQ(corpus::disagreement(*k, *t, v), "") << racy;  // as the corpus on the GPU reads it
  }
  const RaceCheck right = check_races(*find_template("count3"), read("assets/kernels/count3.cu"), paths, fresh_seed());
  ASSERT_TRUE(right.outcome) << right.not_run;
  EXPECT_EQ(right.outcome->status, CaseOutcome::Status::Passed) << right.outcome->name;
  // An endless loop is no race: the device's verdict stands, the check says why it did not run.
  const RaceCheck endless = check_races(*find_template("count3"),
                                        "// template: count3\nextern \"C\" __global__ void count3(cv::Span<const int> data, "
                                        "cv::Span<unsigned long long> count) {\n  for (volatile int k = 0;; ++k) {\n  }\n}\n",
                                        paths, fresh_seed(), 0.3);
  EXPECT_FALSE(endless.outcome);
  EXPECT_NE(endless.not_run.find("too slow on the CPU emulator"), std::string::npos) << endless.not_run;
  const RaceCheck item = check_races(*find_template("fountain_particle"), read("assets/kernels/fountain_particle.cu"),
                                     paths, fresh_seed());
  EXPECT_FALSE(item.outcome);
  EXPECT_FALSE(item.not_run.empty());
}

// reverse's check over the lab's own data draws each input where it compares it
// (no array): the same verdict as over the generated array, the first wrong
// element named, with the edge generators' arrays still used where a case names one.
TEST(Verdict, ReverseCheckNamesTheFirstWrongElementWithOrWithoutTheArray) {
  const TemplateSpec& t = *find_template("reverse");
  for (const char* generator : {"", "near_int_min"}) {
    Workload w;
    w.n = 100003;
    w.seed = 5;
    if (*generator) w.generators["in"] = generator;
    const std::vector<char> in = generate_data(*generator ? generator : kLabData, 100003, 5);
    std::vector<int32_t> out(100003);
    for (size_t i = 0; i < out.size(); ++i) std::memcpy(&out[i], in.data() + 4 * (out.size() - 1 - i), 4);
    auto readback = [&out] {
      ReadBack rb;
      rb["out"].resize(out.size() * 4);
      std::memcpy(rb["out"].data(), out.data(), rb["out"].size());
      return rb;
    };
    EXPECT_TRUE(t.check(w, readback(), Backend::Cpu).correct) << generator;
    out[70001] ^= 1, out[90000] ^= 1;
    const CheckResult r = t.check(w, readback(), Backend::Cpu);
    EXPECT_FALSE(r.correct);
    ASSERT_TRUE(r.mismatch);
    EXPECT_EQ(r.mismatch->element, "out[70001]") << generator;
    EXPECT_EQ(r.fields["result"], 100001) << generator;
    out.pop_back();
    EXPECT_FALSE(t.check(w, readback(), Backend::Cpu).correct);
  }
}

// The same seed gives the same inputs (a failure seen again); another seed
// other inputs, so an answer remembered from one verdict fails the next.
TEST(Verdict, ASeedReproducesItsInputsAndANewSeedDrawsNewOnes) {
  if (no_host_compiler()) GTEST_SKIP() << "no host C++ compiler";
  const Verdict a = judge_source(kRemembered, 7), b = judge_source(kRemembered, 7), c = judge_source(kRemembered, 8);
  ASSERT_TRUE(a.failed() && b.failed() && c.failed());
  EXPECT_EQ(a.failed()->mismatch->expected, b.failed()->mismatch->expected);
  EXPECT_NE(a.failed()->mismatch->expected, c.failed()->mismatch->expected);
  EXPECT_NE(fresh_seed(), fresh_seed());
}

TEST(Verdict, ARightKernelPassesEveryCase) {
  if (no_host_compiler()) GTEST_SKIP() << "no host C++ compiler";
  const Verdict v = judge_source(read_template_source(*find_template("count3"), test_config().paths), fresh_seed());
  EXPECT_TRUE(v.correct) << v.summary();
  EXPECT_EQ(v.cases.size(), verdict_cases(*find_template("count3")).size());
  for (const CaseOutcome& c : v.cases) EXPECT_EQ(c.status, CaseOutcome::Status::Passed) << c.name;
  EXPECT_EQ(v.failed(), nullptr);
  EXPECT_NE(v.summary().find("correct on all 6 cases"), std::string::npos) << v.summary();
}

// A fault ends the verdict at its case: named, with the fault's words; the
// cases after it are not run.
TEST(Verdict, AFaultIsTheFailingCaseAndTheRestAreNotRun) {
  if (no_host_compiler()) GTEST_SKIP() << "no host C++ compiler";
  const Verdict v = judge_source(
      "// template: count3\n"
      "extern \"C\" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {\n"
      "  if (data.size < 32) __trap();\n"
      "  if (cv::global_index() == 0) count[0] = 0;\n"
      "}\n",
      3);
  ASSERT_NE(v.failed(), nullptr);
  EXPECT_EQ(v.cases[0].status, CaseOutcome::Status::Failed);  // the default: wrong, ran
  EXPECT_EQ(v.failed()->name, "the demo's default");
  const auto fault = std::find_if(v.cases.begin(), v.cases.end(),
                                  [](const CaseOutcome& c) { return c.status == CaseOutcome::Status::Fault; });
  ASSERT_NE(fault, v.cases.end());
  EXPECT_EQ(fault->name, "n = 1");
  ASSERT_TRUE(fault->fault);
  for (auto it = fault + 1; it != v.cases.end(); ++it) EXPECT_EQ(it->status, CaseOutcome::Status::NotRun) << it->name;
}

TEST(Verdict, NumbersAreShownAsTheyAreNaNNamed) {
  EXPECT_EQ(check::text(std::nan("")), "NaN");
  EXPECT_EQ(check::text(INFINITY), "inf");
  EXPECT_EQ(check::text(-INFINITY), "-inf");
  EXPECT_EQ(check::text(1.25), "1.25");
  EXPECT_EQ(check::text(0.1f), "0.100000001");  // a float to the digit that tells it apart
}

// A fountain kernel that writes NaN: the first element named, "NaN" as got.
TEST(Verdict, ANaNResultIsNamedAsNaN) {
  if (no_host_compiler()) GTEST_SKIP() << "no host C++ compiler";
  const Verdict v = judge_source(
      "// template: fountain_particle\n"
      "CV_HD void particle_step(cv::Particle& s, float vx, float vz, const cv::Frame& f, const cv::Params& p) {\n"
      "  s.x = s.x / 0.f * 0.f;  // inf * 0 or 0 / 0: NaN either way\n"
      "}\n",
      5, 1024);
  ASSERT_NE(v.failed(), nullptr) << v.summary();
  ASSERT_TRUE(v.failed()->mismatch);
  EXPECT_EQ(v.failed()->mismatch->got, "NaN") << v.summary();
  EXPECT_EQ(v.failed()->mismatch->element.rfind("out[0].x", 0), 0u) << v.summary();
}

// The verdict's runner-kept spans have names of their own: a scene's state in
// the same runner (the window's) is not reset by a verdict.
TEST(Verdict, ItsStateIsApartFromTheScenes) {
  const TemplateSpec& t = *find_template("fountain_kernel");
  Workload scene = first_launch(t, 1024, t.default_block);
  Workload verdict = default_workload(t, Backend::Cpu, 1, JudgeOptions{});
  const LaunchRequest a = make_launch(t, scene), b = make_launch(t, verdict);
  auto state_of = [](const LaunchRequest& r, const std::string& arg) {
    for (const LaunchArg& x : r.args)
      if (x.name == arg) return x.span.state;
    return std::string("?");
  };
  EXPECT_EQ(state_of(a, "vy"), "vy");
  EXPECT_NE(state_of(b, "vy"), "vy");
  EXPECT_NE(state_of(b, "vy").find("vy"), std::string::npos);
  ASSERT_EQ(b.swaps.size(), 1u);
  EXPECT_EQ(b.swaps[0].first, state_of(b, "in"));
  EXPECT_EQ(b.swaps[0].second, state_of(b, "out"));
}

TEST(Verdict, EdgeDataReachesTheEdges) {
  const std::vector<int32_t> ends = edge_data::ends_multiple_of_3(997, 9);
  ASSERT_EQ(ends.size(), 997u);
  EXPECT_EQ(ends.front() % 3, 0);
  EXPECT_EQ(ends.back() % 3, 0);
  const std::vector<int32_t> hi = edge_data::near_int_max(4099, 9), lo = edge_data::near_int_min(4099, 9);
  EXPECT_GE(*std::min_element(hi.begin(), hi.end()), INT32_MAX - 65536);
  EXPECT_LE(*std::max_element(lo.begin(), lo.end()), INT32_MIN + 65536);
  const std::vector<int32_t> x = edge_data::sum3_extremes(200, 9);
  EXPECT_NE(std::find(x.begin(), x.end(), INT32_MIN), x.end());
  EXPECT_NE(std::find(x.begin(), x.end(), INT32_MAX), x.end());
  const corelated::Rows rows = edge_data::ragged_rows(40, 9);
  ASSERT_EQ(rows.rows(), 40u);
  EXPECT_EQ(rows.length(0), 0u);  // an empty row
  EXPECT_EQ(rows.length(1), 1u);  // a single id
  EXPECT_EQ(rows.ids.size(), 40u * kCorelatedIdsPerRow);  // padded to the span's n * 64
  for (size_t r = 0; r < rows.rows(); ++r) EXPECT_TRUE(std::is_sorted(rows.ids.begin() + rows.offsets[r], rows.ids.begin() + rows.offsets[r + 1]));
}

TEST(Verdict, BenchKernelNamesTheCasesTheFailureAndTheSeedThatRepeatsIt) {
  if (no_host_compiler()) GTEST_SKIP() << "no host C++ compiler";
  const std::string path = ::testing::TempDir() + "remembered.cu";
  std::ofstream(path) << kRemembered;
  auto run = [&](uint64_t seed) {
    BenchOptions opt;
    opt.target = "kernel";
    opt.source = path;
    opt.n = 4096;
    opt.reps = 2;
    opt.backend = "cpu";
    opt.seed = seed;
    opt.paths = test_config().paths;
    std::ostringstream out, err;
    EXPECT_EQ(bench::run_bench(opt, out, err), 0) << err.str();
    return nlohmann::json::parse(out.str().substr(0, out.str().find('\n')));
  };
  const nlohmann::json a = run(11), b = run(11);
  EXPECT_EQ(a["correct"], false);
  EXPECT_EQ(a["seed"], 11);
  EXPECT_EQ(a["failed_case"], "the demo's default");
  EXPECT_EQ(a["failed_element"], "count[0]");
  EXPECT_EQ(a["got"], "7777");
  EXPECT_EQ(a["expected"], b["expected"]);
  ASSERT_TRUE(a["cases"].is_array());
  EXPECT_EQ(a["cases"].size(), verdict_cases(*find_template("count3")).size());
  EXPECT_EQ(a["cases"][0]["status"], "failed");
  EXPECT_TRUE(a.contains("verdict_ms"));
  EXPECT_NE(a["verdict"].get<std::string>().find("count[0] is 7777"), std::string::npos);
}

// A warning comes with its words and line, not as a count alone.
TEST(Verdict, BenchKernelGivesEachWarningsTextAndLine) {
  if (no_host_compiler()) GTEST_SKIP() << "no host C++ compiler";
  const std::string path = ::testing::TempDir() + "warned.cu";
  std::ofstream(path) << "// template: count3\n"
                         "extern \"C\" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {\n"
                         "  int unused_total;\n"
                         "  const unsigned long long i = cv::global_index();\n"
                         "  if (i < data.size && data[i] % 3 == 0) atomicAdd(&count[0], 1ull);\n"
                         "}\n";
  BenchOptions opt;
  opt.target = "kernel";
  opt.source = path;
  opt.n = 4096;
  opt.reps = 1;
  opt.backend = "cpu";
  opt.paths = test_config().paths;
  std::ostringstream out, err;
  ASSERT_EQ(bench::run_bench(opt, out, err), 0) << err.str();
  const nlohmann::json j = nlohmann::json::parse(out.str().substr(0, out.str().find('\n')));
  EXPECT_EQ(j["correct"], true) << j["verdict"];
  ASSERT_GE(j["warnings"].get<int>(), 1) << out.str();
  bool named = false;
  for (const nlohmann::json& d : j["diagnostics"])
    named |= d["severity"] == "warning" && d["line"] == 3 &&
             d["message"].get<std::string>().find("unused_total") != std::string::npos;
  EXPECT_TRUE(named) << j["diagnostics"].dump();
}

// The kernel tab's UserKernel judges a loaded kernel by itself (no scene
// launches it here: it starts after a moment) and keeps the verdict.
// The kernel tab's job on a GPU: the device's verdict, then the race check
// as its last case (here through a CPU runner: the wiring is the same).
TEST(Verdict, TheKernelTabsJobAddsTheRaceCheckAfterARightAnswer) {
  if (no_host_compiler()) GTEST_SKIP() << "no host C++ compiler";
  const TemplateSpec& t = *find_template("count3");
  const std::string source = "// template: count3\nextern \"C\" __global__ void count3(" + parameter_text(t) +
                             ") {\n  if (cv::global_index() < data.size && data[cv::global_index()] % 3 == 0)\n"
                             "    atomicAdd(&count[0], 1ull);\n}\n";
  CompileRequest req;
  req.build = BuildKind::Cpu;
  req.source = source;
  req.paths = test_config().paths;
  const CompileResult c = compile(req);
  ASSERT_TRUE(c.ok) << c.first_error() << c.error;
  auto runner = std::make_shared<RunnerClient>(find_runner(test_config().paths.runner), Backend::Cpu);
  ASSERT_TRUE(runner->load(c, 5.0, "editor").ok);
  JudgeJob job;
  job.start(t, runner, "editor", 5.0, JudgeJob::Races{source, test_config().paths});
  std::optional<Verdict> v;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (!v && std::chrono::steady_clock::now() < until) {
    job.poll();
    v = job.take();
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ASSERT_TRUE(v);
  EXPECT_TRUE(v->correct) << v->summary();
  ASSERT_FALSE(v->cases.empty());
  EXPECT_EQ(v->cases.back().name, kRaceCase);
  EXPECT_EQ(v->cases.back().status, CaseOutcome::Status::Passed);
  EXPECT_EQ(v->cases.size(), verdict_cases(t).size() + 1);
}

TEST(Verdict, TheKernelTabJudgesOnceItRuns) {
  if (no_host_compiler()) GTEST_SKIP() << "no host C++ compiler";
  UserKernelOptions o;
  o.backend = Backend::Cpu;
  o.paths = test_config().paths;
  UserKernel uk(o);
  uk.submit(
      "// template: fountain_particle\n"
      "CV_HD void particle_step(cv::Particle& s, float vx, float vz, const cv::Frame& f, const cv::Params& p) {\n"
      "  if (s.age >= p.max_age) { s.age = 0.f; s.vy = p.launch_speed + p.launch_jitter * f.randy;\n"
      "    s.x = f.emitter_x; s.y = 0.f; s.z = f.emitter_z; }\n"
      "  s.x += vx; s.y += s.vy; s.z += vz; s.age += 1.f; s.vy -= p.gravity;  // never bounces\n"
      "}\n");
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < until && (!uk.status().verdict || !uk.status().judging.empty())) {
    uk.poll();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_TRUE(uk.status().verdict) << uk.status().headline << " " << uk.status().fallback;
  EXPECT_FALSE(uk.status().verdict->correct);
  std::vector<std::string> failed;
  for (const CaseOutcome& c : uk.status().verdict->cases)
    if (c.status == CaseOutcome::Status::Failed) failed.push_back(c.name);
  EXPECT_NE(std::find(failed.begin(), failed.end(), "a bounce on the table"), failed.end())
      << uk.status().verdict->summary();
  EXPECT_EQ(uk.status().state, UserKernelState::Ready);  // the kernel still runs: wrong is not a fault
  uk.submit("// template: fountain_particle\nint nothing;\n");
  EXPECT_FALSE(uk.status().verdict) << "a new edit forgets the last verdict";
}

}  // namespace
}  // namespace cv::usercode
