// Every registered template and every example beside it, on the GPU, through
// the one run path (compile, the runner's load and generic launch): each
// matches the reference its registration names, at its default size and at
// a ragged one, with two block shapes. The racy count is wrong on purpose.
#include <gtest/gtest.h>

#include <algorithm>

#include "gpu/gpu_test_util.h"
#include "usercode/compile.h"
#include "usercode/runner_client.h"
#include "usercode/template_registry.h"
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

}  // namespace
}  // namespace cv::usercode
