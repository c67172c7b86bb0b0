// Every registered template and every example beside it, on the GPU, through
// the one run path (compile, the runner's load and generic launch): each
// matches the reference its registration names, at its default size and at
// a ragged one, with two block shapes. The racy count is wrong on purpose.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bench/bench.h"

#include "gpu/gpu_test_util.h"
#include "usercode/compile/compile.h"
#include "usercode/client/runner_client.h"
#include "usercode/templates/template_registry.h"
#include "test_config.h"

namespace cv::usercode {
namespace {

bool wrong_on_purpose(const std::string& name) { return name == "count3_racy"; }

// The sizes a check runs at: the default (capped so the suite stays short) and a ragged one.
std::vector<long long> sizes(const TemplateSpec& t) {
  const long long d = std::min(t.default_n, sanitizer_run() ? 4096ll : 1ll << 22);
  return {d, std::max(3ll, d / 3 + 7)};
}

TEST(TemplatesGpu, EveryTemplateAndExampleMatchesItsReference) {
  CV_REQUIRE_GPU();
  std::string why;
  const std::string path = find_runner(test_config().paths.runner, &why);
  ASSERT_FALSE(path.empty()) << why;
  RunnerClient client(path, Backend::Cuda);
  for (const TemplateEntry& e : template_entries()) {
    CompileRequest req;
    req.source = read_template_source(e, test_config().paths);
    req.file_name = e.file;
    const CompileResult c = compile(req);
    ASSERT_TRUE(c.ok) << e.name << ": " << c.error << c.log;
    const LoadOutcome lo = client.load(c, 2.0);
    ASSERT_TRUE(lo.ok) << e.name << ": " << lo.error;
    const TemplateSpec& t = *e.spec;
    ASSERT_TRUE(t.check) << t.name;
    const BlockShape other = t.default_block.y > 1 ? BlockShape{8, 4, 1} : BlockShape{96, 1, 1};
    for (long long n : sizes(t))
      for (const BlockShape& b : {t.default_block, other}) {
        Workload w;
        w.n = n;
        w.block = b;
        w.seed = t.default_seed;
        LaunchOutcome out;
        const int steps = std::max(1, t.check_steps);
        for (int k = 0; k < steps; ++k) {
          w.step = k;
          w.reset = k == 0;
          w.read_back = k + 1 == steps;
          out = client.launch(make_launch(t, w), 2.0);
          ASSERT_TRUE(out.ok) << e.name << " n " << n << ": " << out.fault->describe();
        }
        const CheckResult r = t.check(w, out.read_back, Backend::Cuda);
        if (wrong_on_purpose(e.name))
          EXPECT_FALSE(r.correct) << e.name << ": the race lost no update? " << r.fields.dump();
        else
          EXPECT_TRUE(r.correct) << e.name << " n " << n << " block " << b.x << "x" << b.y << ": "
                                 << r.fields.dump();
      }
  }
}

// A bounds-checked build of every template names a bad index instead of
// faulting: the fountain's and the labs' spans are all checked alike.
TEST(TemplatesGpu, CheckedBuildsOfEveryTemplateRunClean) {
  CV_REQUIRE_GPU();
  std::string why;
  const std::string path = find_runner(test_config().paths.runner, &why);
  ASSERT_FALSE(path.empty()) << why;
  RunnerClient client(path, Backend::Cuda);
  for (const TemplateSpec* t : template_specs()) {
    CompileRequest req;
    req.source = read_template_source(*t, test_config().paths);
    req.checked = true;
    const CompileResult c = compile(req);
    ASSERT_TRUE(c.ok) << t->name << c.log;
    ASSERT_TRUE(client.load(c, 2.0).ok) << t->name;
    Workload w;
    w.n = std::min(t->default_n, 100000ll);
    w.block = t->default_block;
    w.seed = t->default_seed;
    w.reset = true;
    const LaunchOutcome out = client.launch(make_launch(*t, w), 2.0);
    EXPECT_TRUE(out.ok) << t->name << ": " << (out.fault ? out.fault->describe() : "");
  }
}

// `cudaviz bench kernel` on every template: correct, timed, and `vs` the
// built-in variants its registration names, measured in the same run.
TEST(TemplatesGpu, BenchKernelRunsEveryTemplateBesideItsBuiltIns) {
  CV_REQUIRE_GPU();
  for (const TemplateSpec* t : template_specs()) {
    BenchOptions o;
    o.target = "kernel";
    o.variant = "yours";
    o.backend = "cuda";
    o.source_text = read_template_source(*t, test_config().paths);
    o.source = t->file;
    o.n = std::min(t->default_n, 1ll << 20);
    o.reps = 5;
    o.paths = test_config().paths;
    std::ostringstream out, err;
    ASSERT_EQ(bench::run_bench(o, out, err), 0) << t->name << ": " << err.str() << out.str();
    const nlohmann::json line = nlohmann::json::parse(out.str().substr(0, out.str().find('\n')));
    EXPECT_EQ(line.value("template", ""), t->name);
    EXPECT_EQ(line["correct"], true) << line.dump();
    EXPECT_GT(line.value("ms_median", 0.0), 0) << line.dump();
    EXPECT_GT(line.value("edit_to_run_ms", 0.0), 0) << line.dump();
    ASSERT_TRUE(line.contains("vs")) << line.dump();
    for (const std::string& v : t->vs_variants) EXPECT_TRUE(line["vs"].contains(v)) << t->name << " vs " << v;
    if (!t->rate_name.empty()) EXPECT_GT(line.value(t->rate_name, 0.0), 0) << line.dump();
  }
}

}  // namespace
}  // namespace cv::usercode
