// Your kernel: compiling without a GPU (NVRTC needs no driver) and with the
// host C++ compiler. Errors at the student's lines, warnings, every shipped
// template clean, garbage sources refused quickly with a clear message.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <thread>

#include "usercode/compile/compile.h"
#include "usercode/compile/compile_log.h"
#include "usercode/compile/compile_parts.h"
#include "usercode/templates/template_registry.h"
#include "test_config.h"

namespace cv::usercode {
namespace {

CompileResult gpu(const std::string& src, const std::string& tmpl = "") {
  CompileRequest req;
  req.source = src;
  req.template_name = tmpl;
  req.arch = "sm_75";  // no device here: a chosen architecture
  return compile(req);
}

bool nvrtc_missing() { return nvrtc_status().rfind("NVRTC ", 0) != 0; }

const Diagnostic* first(const CompileResult& r, Severity s) {
  for (const Diagnostic& d : r.diagnostics)
    if (d.severity == s) return &d;
  return nullptr;
}

TEST(UsercodeTemplates, FirstLineNamesTheTemplate) {
  EXPECT_EQ(template_from_source("// template: pi\nint x;"), "pi");
  EXPECT_EQ(template_from_source("  //template:count3  trailing\r\n"), "count3");
  EXPECT_EQ(template_from_source("int x; // template: pi"), std::nullopt);
  EXPECT_EQ(template_from_source("\n// template: pi"), std::nullopt);
  EXPECT_EQ(template_from_source("// template:"), std::nullopt);
  for (const TemplateEntry& t : template_entries()) {
    const std::string src = read_template_source(t, test_config().paths);
    ASSERT_TRUE(template_from_source(src)) << t.file;
    EXPECT_EQ(*template_from_source(src), t.spec->name) << t.file;
  }
}

TEST(UsercodeCompile, EveryShippedKernelCompilesCleanForTheGpu) {
  if (nvrtc_missing()) GTEST_SKIP() << nvrtc_status();
  for (const TemplateEntry& t : template_entries()) {
    for (bool checked : {false, true}) {
      CompileRequest req;
      req.source = read_template_source(t, test_config().paths);
      req.arch = "sm_75";
      req.checked = checked;
      req.file_name = t.file;
      const CompileResult r = compile(req);
      EXPECT_TRUE(r.ok) << t.file << (checked ? " (checked)" : "") << ": " << r.error << "\n" << r.log;
      EXPECT_TRUE(r.diagnostics.empty()) << t.file << ": " << r.log;
      EXPECT_FALSE(r.cubin.empty()) << t.file;
      EXPECT_NE(r.ptx.find(".entry " + r.entry_points.at(0)), std::string::npos) << t.file;
      EXPECT_TRUE(r.resources.known) << t.file << "\n" << r.log;
      EXPECT_GT(r.resources.registers, 0) << t.file;
      EXPECT_GT(r.compile_ms, 0) << t.file;
    }
  }
}

// Every template and example with one wrong line added at its end: the error
// is at that line of the student's file, whatever the template's prelude adds.
TEST(UsercodeCompile, EveryShippedKernelReportsAnErrorAtTheStudentsLine) {
  if (nvrtc_missing()) GTEST_SKIP() << nvrtc_status();
  for (const TemplateEntry& t : template_entries()) {
    std::string src = read_template_source(t, test_config().paths);
    if (!src.empty() && src.back() != '\n') src += '\n';
    const int line = static_cast<int>(std::count(src.begin(), src.end(), '\n')) + 1;
    src += "int student_error = name_nobody_declared;\n";
    const CompileResult r = gpu(src);
    EXPECT_FALSE(r.ok) << t.file;
    EXPECT_EQ(r.first_error_line(), line) << t.file << "\n" << r.log;
    EXPECT_NE(r.first_error().find("name_nobody_declared"), std::string::npos) << t.file << ": " << r.first_error();
  }
}

TEST(UsercodeCompile, ErrorsAndWarningsAtTheStudentsLines) {
  if (nvrtc_missing()) GTEST_SKIP() << nvrtc_status();
  const std::string src =
      "// template: count3\n"                                                           // 1
      "extern \"C\" __global__ void count3(cv::Span<const int> data,\n"                 // 2
      "                                    cv::Span<unsigned long long> count) {\n"     // 3
      "  int unused;\n"                                                                 // 4
      "  const unsigned long long i = cv::global_index();\n"                            // 5
      "  if (i < data.size && data[i] % 3 == 0) atomicAdd(&count[0], 1ull);\n"          // 6
      "  not_declared = 3;\n"                                                           // 7
      "}\n";
  const CompileResult r = gpu(src);
  EXPECT_FALSE(r.ok);
  const Diagnostic* e = first(r, Severity::Error);
  ASSERT_NE(e, nullptr) << r.log;
  EXPECT_EQ(e->line, 7);
  EXPECT_EQ(e->column, 3);
  EXPECT_NE(e->message.find("not_declared"), std::string::npos) << e->message;
  const Diagnostic* w = first(r, Severity::Warning);
  ASSERT_NE(w, nullptr) << r.log;
  EXPECT_EQ(w->line, 4);
  EXPECT_EQ(w->column, 7);
  EXPECT_EQ(r.first_error_line(), 7);
  EXPECT_EQ(r.first_error().rfind("7: error: ", 0), 0u) << r.first_error();
}

TEST(UsercodeCompile, WrongSignatureOrMissingKernelIsAnError) {
  if (nvrtc_missing()) GTEST_SKIP() << nvrtc_status();
  const CompileResult wrong = gpu(
      "// template: count3\nextern \"C\" __global__ void count3(int* data) {}\n");
  ASSERT_FALSE(wrong.ok);
  EXPECT_EQ(wrong.first_error_line(), 2) << wrong.log;
  const CompileResult none = gpu("// template: pi\n__global__ void other() {}\n");
  ASSERT_FALSE(none.ok);
  EXPECT_NE(none.first_error().find("pi_samples"), std::string::npos) << none.first_error();
  const CompileResult particle = gpu("// template: fountain_particle\nint x;\n");
  ASSERT_FALSE(particle.ok);
  EXPECT_NE(particle.first_error().find("particle_step"), std::string::npos) << particle.log;
}

TEST(UsercodeCompile, TemplateProblemsAreSentences) {
  const CompileResult none = gpu("int x;\n");
  EXPECT_FALSE(none.ok);
  EXPECT_NE(none.error.find("// template: NAME"), std::string::npos) << none.error;
  const CompileResult unknown = gpu("// template: teapot\n");
  EXPECT_NE(unknown.error.find("unknown template 'teapot'"), std::string::npos) << unknown.error;
  // A whole kernel compiles for the CPU (the emulator's build); a file
  // without its entry point says so at link/load time, never "GPU only".
  CompileRequest cpu;
  cpu.source = "// template: count3\n";
  cpu.build = BuildKind::Cpu;
  const CompileResult c = compile(cpu);
  EXPECT_EQ(c.error.find("only on a CUDA GPU"), std::string::npos) << c.error;
}

// Garbage must be refused quickly and clearly; none of these may hang.
TEST(UsercodeCompile, GarbageSources) {
  const auto t0 = std::chrono::steady_clock::now();
  std::string binary = "// template: pi\n";
  for (int i = 0; i < 4096; ++i) binary += static_cast<char>(i * 37 % 256);
  const CompileResult b = gpu(binary);
  EXPECT_FALSE(b.ok);
  EXPECT_NE(b.first_error().find("not text"), std::string::npos) << b.first_error();

  const std::string huge = "// template: pi\n" + std::string(10 * 1024 * 1024, 'x');
  const CompileResult h = gpu(huge);
  EXPECT_FALSE(h.ok);
  EXPECT_NE(h.first_error().find(std::to_string(huge.size()) + " bytes"), std::string::npos);
  EXPECT_NE(h.first_error().find(std::to_string(kMaxSourceBytes)), std::string::npos);

  const CompileResult c = gpu("// template: pi\nint x;\n/* never closed\nint y;\n");
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.first_error_line(), 3);
  EXPECT_NE(c.first_error().find("never closed"), std::string::npos);

  for (const char* inc : {"#include </dev/zero>", "  #  include \"x.h\"", "#include_next <a>"}) {
    const CompileResult i = gpu(std::string("// template: pi\n\n") + inc + "\n");
    EXPECT_FALSE(i.ok) << inc;
    EXPECT_EQ(i.first_error_line(), 3) << inc;
    EXPECT_NE(i.first_error().find("not available"), std::string::npos) << i.first_error();
  }
  // Inside comments and strings an #include is only text.
  EXPECT_TRUE(
      check_source("// #include <x>\n/*\n#include <y>\n*/\nconst char* s = \"#include\";\n").empty());
  EXPECT_FALSE(check_source("#line 5\n").empty());
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 20.0);
}

TEST(UsercodeCompile, NvrtcLogParsing) {
  const std::string log =
      "k.cu(5): error: identifier \"q\" is undefined\n"
      "    q = 3;\n"
      "    ^\n\n"
      "k.cu(2): warning #177-D: variable \"u\" was declared but never referenced\n"
      "    int u;\n"
      "        ^\n\n"
      "cudaviz_fountain_particle_gpu.h(12): error: identifier \"particle_step\" is undefined\n";
  const auto d = parse_nvrtc_log(log, "k.cu");
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].line, 5);
  EXPECT_EQ(d[0].column, 3);
  EXPECT_EQ(d[1].severity, Severity::Warning);
  EXPECT_EQ(d[1].line, 2);
  EXPECT_EQ(d[1].column, 7);
  EXPECT_NE(d[1].message.find("177-D"), std::string::npos);
  EXPECT_EQ(d[2].line, 0);
  EXPECT_NE(d[2].message.find("cudaviz_fountain_particle_gpu.h"), std::string::npos);
  const auto h = parse_host_log("k.cu: In function 'void f()':\nk.cu:9:4: error: 'z' was not declared\n", "k.cu");
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0].line, 9);
  EXPECT_EQ(h[0].column, 4);
}

TEST(UsercodeCompile, PerParticleOnTheHostCompiler) {
  if (find_host_compiler(test_config().paths).empty()) GTEST_SKIP() << "no host C++ compiler";
  CompileRequest req;
  req.source = read_template_source(*find_template("fountain_particle"), test_config().paths);
  req.build = BuildKind::Cpu;
  const CompileResult ok = compile(req);
  EXPECT_TRUE(ok.ok) << ok.error << ok.log;
  EXPECT_FALSE(ok.shared_object.empty());
  EXPECT_EQ(ok.entry_points.at(0), "cv_fountain_rows");
  req.source = "// template: fountain_particle\n\nCV_HD void particle_step(cv::Particle& s, float vx, float vz,\n"
               "    const cv::Frame& f, const cv::Params& p) { s.x += undefined_name; }\n";
  const CompileResult bad = compile(req);
  EXPECT_FALSE(bad.ok);
  EXPECT_EQ(bad.first_error_line(), 4) << bad.log;
}

TEST(UsercodeCompile, PreludeIsShownAndDeclaresTheEntryPoint) {
  EXPECT_NE(prelude_text(*find_template("count3")).find(
                "void count3(cv::Span<const int> data, cv::Span<unsigned long long> count);"),
            std::string::npos)
      << prelude_text(*find_template("count3"));
  EXPECT_NE(prelude_text(*find_template("fountain_particle")).find("particle_step(s"), std::string::npos);
  EXPECT_NE(prelude_text(*find_template("pi")).find("namespace cv"), std::string::npos);
  // How it is checked: the reference, and the tolerance where there is one.
  EXPECT_NE(prelude_text(*find_template("count3")).find("// against the CPU's count"), std::string::npos);
  EXPECT_NE(prelude_text(*find_template("count3")).find("// exactly"), std::string::npos);
  EXPECT_NE(prelude_text(*find_template("nbody_kernel")).find("// within per body and component"), std::string::npos)
      << prelude_text(*find_template("nbody_kernel"));
  // Every template's prelude declares its entry point (or its per-item function).
  for (const TemplateSpec* t : template_specs()) {
    const std::string text = prelude_text(*t);
    EXPECT_NE(text.find(t->student_function.empty() ? t->entry : t->student_function), std::string::npos) << t->name;
  }
}

// A function whose parameters are not its template's: one error at the
// student's function with the declaration it must have, on NVRTC and on the
// host compiler (the emulator's build for whole kernels, the loop's for a
// per-particle function), instead of the compiler's words in the app's own
// code; those stay, as notes.
struct Mismatched {
  const char* tmpl;
  const char* source;  // its function on line 3
};
const Mismatched kMismatched[] = {
    {"reverse", "// template: reverse\n// reversed, with raw pointers\n"
                "extern \"C\" __global__ void reverse(const int* in, int* out) {\n  out[0] = in[0];\n}\n"},
    {"pi", "// template: pi\n\n"
           "extern \"C\" __global__ void pi_samples(int n, unsigned long long seed, cv::Span<unsigned long long> hits) {}\n"},
    {"reverse", "// template: reverse\n// no extern \"C\"\n"
                "__global__ void reverse(const int* in, int* out) { out[0] = in[0]; }\n"},
    {"fountain_particle", "// template: fountain_particle\n// one parameter short\n"
                          "CV_HD void particle_step(cv::Particle& s, float vx, float vz, const cv::Frame& f) {\n  s.y += s.vy;\n}\n"},
};

void expect_at_the_function(const CompileResult& r, const TemplateSpec& t, const std::string& where) {
  EXPECT_FALSE(r.ok) << where;
  EXPECT_EQ(r.first_error_line(), 3) << where << ": " << r.first_error() << "\n" << r.log;
  const std::string e = r.first_error();
  EXPECT_NE(e.find("does not match the " + t.name + " template's declaration"), std::string::npos) << where << ": " << e;
  const std::string params = t.declaration.empty() ? parameter_text(t) : "const cv::Params& p";
  EXPECT_NE(e.find(params), std::string::npos) << where << ": " << e;
  EXPECT_TRUE(r.error.empty()) << where << ": " << r.error;
  EXPECT_TRUE(std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
                          [](const Diagnostic& d) { return d.severity == Severity::Note; }))
      << where << ": the compiler's own words are kept";
}

TEST(UsercodeCompile, ASignatureThatDoesNotMatchIsReportedAtTheStudentsFunction) {
  for (const Mismatched& m : kMismatched) {
    const TemplateSpec& t = *find_template(m.tmpl);
    if (!nvrtc_missing()) expect_at_the_function(gpu(m.source), t, std::string(m.tmpl) + " (NVRTC)");
    if (find_host_compiler(test_config().paths).empty()) continue;
    CompileRequest req;
    req.source = m.source;
    req.build = BuildKind::Cpu;
    req.paths = test_config().paths;
    expect_at_the_function(compile(req), t, std::string(m.tmpl) + " (host)");
  }
}

TEST(UsercodeCompile, FindsTheStudentsDefinitionOutsideCommentsAndStrings) {
  const std::string src = "// reverse(in, out) in a comment\nconst char* s = \"reverse(\";\n  void reverse (int);\n";
  EXPECT_EQ(detail::find_definition(src, "reverse"), (std::pair<int, int>{3, 8}));
  EXPECT_EQ(detail::find_definition("int reversed(int);\n", "reverse"), (std::pair<int, int>{0, 0}));
}

TEST(UsercodeCompile, JobRunsOffTheCallingThread) {
  CompileJob job;
  CompileRequest req;
  req.source = "int x;\n";  // no template: fails fast, still through the job
  job.start(req);
  std::optional<CompileResult> r;
  for (int i = 0; i < 2000 && !r; ++i) {
    r = job.take();
    if (!r) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->ok);
  EXPECT_FALSE(job.busy());
}

}  // namespace
}  // namespace cv::usercode
