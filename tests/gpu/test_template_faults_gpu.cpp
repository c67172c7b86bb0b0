// Every registered template's fault cases on the GPU, through the one run
// path: its shipped file with a fault put at the top of the function the
// student writes. A __trap() and an endless loop end only the runner, named
// in words, and the next load runs the good file in a fresh runner; in checked
// mode an index one past the end of the function's first buffer is named with
// its line, and the runner lives on. (The fountain's own cases, the illegal
// and misaligned addresses among them, are in test_usercode_gpu.cpp.)
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>

#include "gpu/gpu_test_util.h"
#include "usercode/compile/compile.h"
#include "usercode/client/fault_words.h"
#include "usercode/client/runner_client.h"
#include "usercode/templates/template_registry.h"
#include "test_config.h"

namespace cv::usercode {
namespace {

// Just after the opening brace of `fn`'s definition (not a mention in a
// comment, a declaration or a call); npos when the file has none.
size_t body_start(const std::string& src, const std::string& fn) {
  for (size_t at = src.find(fn + "("); at != std::string::npos; at = src.find(fn + "(", at + fn.size())) {
    const size_t line_start = src.rfind('\n', at) == std::string::npos ? 0 : src.rfind('\n', at) + 1;
    const size_t comment = src.find("//", line_start);
    if (comment < at) continue;
    const size_t brace = src.find('{', at), semi = src.find(';', at);
    if (brace < semi) return brace + 1;
  }
  return std::string::npos;
}

struct Injected {
  std::string source;
  int line = 0;  // the injected statement's line
};

Injected inject(const std::string& src, const std::string& fn, const std::string& statement) {
  const size_t at = body_start(src, fn);
  if (at == std::string::npos) return {};
  Injected r;
  r.line = 2 + static_cast<int>(std::count(src.begin(), src.begin() + static_cast<long>(at), '\n'));
  r.source = src.substr(0, at) + "\n  " + statement + "\n" + src.substr(at);
  return r;
}

// The first argument of the student's function that is a plain cv::Span (a
// per-item function receives a particle, not buffers: none).
const ArgSpec* first_span(const TemplateSpec& t) {
  if (!t.student_function.empty()) return nullptr;
  for (const ArgSpec& a : t.args)
    if (a.is_span && a.span.param_type.empty()) return &a;
  return nullptr;
}

LaunchRequest small_launch(const TemplateSpec& t) {
  Workload w;
  w.n = std::min(t.default_n, 4096ll);
  w.block = t.default_block;
  w.seed = t.default_seed;
  w.reset = true;
  w.read_back = false;
  return make_launch(t, w);
}

CompileResult build(const std::string& src, const std::string& file, bool checked) {
  CompileRequest req;
  req.source = src;
  req.file_name = file;
  req.checked = checked;
  req.guard = true;  // as the app runs it
  return compile(req);
}

struct Case {
  const char* what;
  std::string statement;
  std::vector<std::string> names;  // the error names it may be reported as
  double limit_s;
  bool checked;
};

TEST(TemplateFaultsGpu, TrapLoopAndOutOfRangeInEveryTemplateEndOnlyTheRunner) {
  CV_REQUIRE_GPU();
  std::string why;
  const std::string runner = find_runner(test_config().paths.runner, &why);
  ASSERT_FALSE(runner.empty()) << why;
  int templates = 0;
  for (const TemplateSpec* t : template_specs()) {
    SCOPED_TRACE(t->name);
    const std::string good = read_template_source(*t, test_config().paths);
    const std::string fn = t->student_function.empty() ? t->entry : t->student_function;
    std::vector<Case> cases = {
        {"trap", "__trap();", {"cudaErrorLaunchFailure", "cudaErrorIllegalInstruction"}, 2.0, false},
        // clock64() is a volatile read the compiler cannot drop.
        {"endless loop", "while (clock64() >= 0) {}", {"time-out", "cudaErrorLaunchTimeout"}, 0.5, false}};
    if (const ArgSpec* s = first_span(*t))
      cases.push_back({"out of range",
                       "{ volatile char cv_b = *reinterpret_cast<const char*>(&" + s->name + ".at(" + s->name +
                           ".size)); (void)cv_b; }",
                       {"out of range"},
                       2.0,
                       true});
    const LaunchRequest q = small_launch(*t);
    for (const Case& c : cases) {
      SCOPED_TRACE(c.what);
      const Injected bad = inject(good, fn, c.statement);
      ASSERT_FALSE(bad.source.empty()) << "no definition of " << fn << " in " << t->file;
      const CompileResult cr = build(bad.source, t->file, c.checked);
      ASSERT_TRUE(cr.ok) << cr.first_error() << cr.error;
      RunnerClient client(runner, Backend::Cuda);
      ASSERT_TRUE(client.load(cr, 2.0).ok);
      const auto t0 = std::chrono::steady_clock::now();
      const LaunchOutcome out = client.launch(q, c.limit_s);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      ASSERT_FALSE(out.ok) << "the fault went unnoticed";
      ASSERT_TRUE(out.fault);
      const KernelFault& f = *out.fault;
      EXPECT_NE(std::find(c.names.begin(), c.names.end(), f.error_name), c.names.end()) << f.describe();
      EXPECT_FALSE(explain_error(f.error_name, c.limit_s).empty());
      EXPECT_LT(s, c.limit_s + 1.5) << "reported after " << s << " s";
      if (c.checked) {
        ASSERT_TRUE(f.out_of_range) << f.describe();
        EXPECT_EQ(f.out_of_range->line, bad.line) << f.describe();
        EXPECT_TRUE(client.running()) << "a checked fault leaves the runner's context usable";
      } else {
        EXPECT_FALSE(client.running()) << "a runner whose context faulted must be gone";
      }
      // The good file in a fresh runner (the same client starts one).
      const CompileResult ok = build(good, t->file, false);
      ASSERT_TRUE(ok.ok) << ok.first_error();
      ASSERT_TRUE(client.load(ok, 2.0).ok);
      const LaunchOutcome again = client.launch(q, 2.0);
      EXPECT_TRUE(again.ok) << (again.fault ? again.fault->describe() : "");
    }
    ++templates;
  }
  EXPECT_GE(templates, 11);
}

}  // namespace
}  // namespace cv::usercode
