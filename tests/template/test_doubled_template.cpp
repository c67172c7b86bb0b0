// "Add a template" proven: `doubled` lives only in tests/template (its kernel
// file and one registration), yet every consumer of the template registry
// knows it: the editor's list, compile and the prelude view, the launch rules,
// the labs' "run your kernel" and bench kernel, and, on a GPU, the runner.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "bench/bench.h"
#include "bench/kernel_action.h"
#include "gpu/gpu_test_util.h"
#include "usercode/compile/compile.h"
#include "usercode/client/runner_client.h"
#include "usercode/templates/template_registry.h"
#include "test_config.h"

namespace cv::usercode {
namespace {

std::string source() { return read_template_source(*find_template("doubled"), test_config().paths); }

TEST(DoubledTemplate, TheRegistryListsIt) {
  const TemplateSpec* t = find_template("doubled");
  ASSERT_TRUE(t);
  EXPECT_TRUE(find_entry("doubled"));
  EXPECT_NE(template_names().find("doubled"), std::string::npos);
  bool feeds = false;
  for (const TemplateSpec* f : templates_feeding("reduce")) feeds = feeds || f == t;
  EXPECT_TRUE(feeds);
  EXPECT_EQ(template_from_source(source()), "doubled");
  EXPECT_EQ(template_specs().back(), t) << "its order puts it last";
}

TEST(DoubledTemplate, CompilesWithItsDeclarationAndErrorsAtTheStudentsLine) {
  if (nvrtc_status().rfind("NVRTC ", 0) != 0) GTEST_SKIP() << nvrtc_status();
  EXPECT_NE(prelude_text(*find_template("doubled"))
                .find("void doubled(cv::Span<const int> data, cv::Span<long long> total);"),
            std::string::npos);
  CompileRequest req;
  req.source = source();
  req.arch = "sm_75";
  const CompileResult ok = compile(req);
  ASSERT_TRUE(ok.ok) << ok.error << ok.log;
  EXPECT_NE(ok.ptx.find(".entry doubled("), std::string::npos);
  req.source = "// template: doubled\n\nextern \"C\" __global__ void doubled(cv::Span<const int> data,\n"
               "    cv::Span<long long> total) {\n  total[0] = missing;\n}\n";
  const CompileResult bad = compile(req);
  EXPECT_FALSE(bad.ok);
  EXPECT_EQ(bad.first_error_line(), 5) << bad.log;
}

TEST(DoubledTemplate, TheReduceLabRunsIt) {
  BenchOptions f;
  f.target = "reduce";
  f.source_text = source();
  EXPECT_FALSE(bench::your_kernel_unavailable("reduce", f, Backend::Cuda));
  const auto why = bench::your_kernel_unavailable("count3", f, Backend::Cuda);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("holds a doubled kernel"), std::string::npos) << *why;
  // bench kernel takes it by its first line; on the CPU backend the emulator runs the whole kernel.
  BenchOptions o;
  o.target = "kernel";
  o.variant = "yours";
  o.source_text = source();
  o.source = "doubled.cu";
  o.n = 1000;
  o.paths = test_config().paths;
  std::ostringstream out, err;
  const int code = bench::run_bench([&] { o.backend = "cpu"; return o; }(), out, err);
  EXPECT_EQ(code, 0) << err.str();  // a whole kernel: the CPU emulator runs it
  EXPECT_NE(out.str().find("\"template\":\"doubled\""), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("\"emulated\":true"), std::string::npos) << out.str();
}

TEST(DoubledTemplate, NoAppFileNamesIt) {
  namespace fs = std::filesystem;
  for (const char* dir : {"app", "assets", "kernels"})
    for (const auto& e : fs::recursive_directory_iterator(fs::path(CUDAVIZ_SOURCE_DIR) / dir)) {
      if (!e.is_regular_file()) continue;
      std::ifstream in(e.path(), std::ios::binary);
      std::stringstream s;
      s << in.rdbuf();
      EXPECT_EQ(s.str().find("doubled"), std::string::npos) << e.path();
    }
}

TEST(DoubledTemplateGpu, MatchesItsReferenceThroughTheRunner) {
  CV_REQUIRE_GPU();
  CompileRequest req;
  req.source = source();
  const CompileResult c = compile(req);
  ASSERT_TRUE(c.ok) << c.log;
  std::string why;
  const std::string path = find_runner(test_config().paths.runner, &why);
  ASSERT_FALSE(path.empty()) << why;
  RunnerClient client(path, Backend::Cuda);
  ASSERT_TRUE(client.load(c, 2.0).ok);
  const TemplateSpec& t = *find_template("doubled");
  Workload w;
  w.n = 1'000'003;
  w.block = {256, 1, 1};
  const LaunchOutcome out = client.launch(make_launch(t, w), 2.0);
  ASSERT_TRUE(out.ok) << out.fault->describe();
  const CheckResult r = t.check(w, out.read_back, Backend::Cuda);
  EXPECT_TRUE(r.correct) << r.fields.dump();
}

}  // namespace
}  // namespace cv::usercode
