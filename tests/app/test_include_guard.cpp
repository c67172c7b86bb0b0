// Files on the teacher's machine never reach a student's page: every spelling
// of an include (splices, digraphs, trigraphs, comments, __has_include,
// pragmas) is refused before any compiler, the host compiler runs where no
// such file exists (a spelling the scan cannot see, built by token pasting),
// and no path of the machine is in what a compile hands back.
#include <gtest/gtest.h>

#include <fstream>

#include "usercode/compile/compile.h"
#include "usercode/compile/compile_log.h"
#include "usercode/compile/include_guard.h"
#include "usercode/sandbox/path_scrub.h"
#include "test_config.h"

namespace cv::usercode {
namespace {

struct Spelling {
  const char* what;
  std::string text;
  int line;  // where the error must be
};

TEST(UsercodeIncludeGuard, EverySpellingIsRefusedAtItsLine) {
  const std::vector<Spelling> cases = {
      {"plain", "int a;\n#include \"/etc/passwd\"\n", 2},
      {"angle", "#include </etc/shadow>\n", 1},
      {"spliced name", "int a;\n#inc\\\nlude \"/etc/passwd\"\n", 2},
      {"spliced hash", "#\\\ninclude \"/etc/passwd\"\n", 1},
      {"splice with blanks", "#incl\\  \nude \"/etc/passwd\"\n", 1},
      {"digraph", "%:include \"/etc/passwd\"\n", 1},
      {"trigraph", "?\?=include \"/etc/passwd\"\n", 1},
      {"comment between", "#/* x */include \"/etc/passwd\"\n", 1},
      {"vertical tab", "#\v include \"/etc/passwd\"\n", 1},
      {"after a comment's lines", "/* a\n*/#include \"/etc/passwd\"\n", 2},
      {"include_next", "#include_next <stdio.h>\n", 1},
      {"import", "#import \"/etc/passwd\"\n", 1},
      {"embed", "const char d[] = {\n#embed \"/etc/passwd\"\n};\n", 2},
      {"line", "#line 1 \"/etc/passwd\"\n", 1},
      {"has_include", "#if __has_include(\"/etc/passwd\")\n#endif\n", 1},
      {"has_include__", "#if __has_include__(\"/etc/passwd\")\n#endif\n", 1},
      {"pragma dependency", "int a;\n#pragma GCC dependency \"/etc/passwd\"\n", 2},
      {"_Pragma dependency", "_Pragma(\"GCC dependency \\\"/etc/passwd\\\"\")\n", 1},
      {"stringified pragma", "#define P(x) _Pragma(#x)\nP(GCC dependency \"/etc/passwd\")\n", 2},
      {"include_alias", "#pragma include_alias(\"a.h\", \"/etc/passwd\")\n", 1},
      {"base file", "const char* f = __BASE_FILE__;\n", 1},
  };
  for (const Spelling& c : cases) {
    const std::vector<Diagnostic> d = check_source(c.text);
    ASSERT_FALSE(d.empty()) << c.what;
    EXPECT_EQ(d[0].line, c.line) << c.what << ": " << d[0].message;
    EXPECT_EQ(d[0].severity, Severity::Error) << c.what;
  }
}

TEST(UsercodeIncludeGuard, TheWordsInStringsAndCommentsAreFine) {
  for (const std::string ok : {"const char* s = \"#include <x>\";\n", "// #include \"/etc/passwd\"\n",
                               "/* #include \"/etc/passwd\" */ int a;\n", "const char* r = R\"(#include x)\";\n",
                               "const char c = '#'; int include = 1;\n", "#define N 3\n#pragma unroll\n",
                               "int x = 1'000;\n#define S(a) #a\n"})
    EXPECT_TRUE(check_source(ok).empty()) << ok << check_source(ok)[0].message;
}

TEST(UsercodeIncludeGuard, PathsBecomeTheirLastComponent) {
  EXPECT_EQ(sandbox::scrub_paths("/tmp/cudaviz-Ab12/kernel.cpp:3:1: error: in /usr/include/c++/12/cmath"),
            "the prelude:3:1: error: in cmath");
  EXPECT_EQ(sandbox::scrub_paths("In file included from /home/teacher/x/cudaviz.h:4,"),
            "In file included from cudaviz.h:4,");
  EXPECT_EQ(sandbox::scrub_paths("'/usr/local/cuda/include/cuda_fp16.h' and ~/secret.txt"),
            "'cuda_fp16.h' and secret.txt");
  EXPECT_EQ(sandbox::scrub_paths("a/b and 3/4"), "a/b and 3/4");  // not absolute: left as is
  EXPECT_EQ(sandbox::scrub_paths("start with `// template: NAME` or x / y"), "start with `// template: NAME` or x / y");
}

CompileResult cpu_compile(const std::string& body) {
  CompileRequest req;
  req.build = BuildKind::Cpu;
  req.paths = test_config().paths;
  req.source = "// template: count3\n" + body +
               "extern \"C\" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {}\n";
  return compile(req);
}

// __has_include made by token pasting gets past any scan; the compiler then
// runs where /etc/passwd does not exist, so the oracle says no.
TEST(UsercodeIncludeGuard, TheHostCompilerSeesNoFilesOfTheMachine) {
  if (find_host_compiler(test_config().paths).empty()) GTEST_SKIP() << "no host C++ compiler";
  const CompileResult c = cpu_compile(
      "#define CV_CAT(a, b) a##b\n#define CV_HAS CV_CAT(__has_, include)\n"
      "#if CV_HAS(\"/etc/passwd\")\n#error the file exists\n#endif\n");
  std::cout << "[ sandbox ] " << c.sandbox << "\n";
  if (c.sandbox.find("read-only toolchain") == std::string::npos)
    GTEST_SKIP() << "the compiler is not confined here: " << c.sandbox;
  EXPECT_TRUE(c.ok) << c.first_error() << c.error;
  EXPECT_EQ(c.log.find("the file exists"), std::string::npos) << c.log;
}

TEST(UsercodeIncludeGuard, MessagesCarryNoPathOfTheMachine) {
  if (find_host_compiler(test_config().paths).empty()) GTEST_SKIP() << "no host C++ compiler";
  // An error whose notes point into the C++ library's headers and the prelude.
  const CompileResult c = cpu_compile("struct S { int v; };\nint f() { S s; return std::max(s, 1); }\n");
  ASSERT_FALSE(c.ok);
  std::string all = c.log + c.error;
  for (const Diagnostic& d : c.diagnostics) all += d.message;
  EXPECT_GT(c.log.size(), 0u);
  for (const char* path : {"/usr/", "/tmp/", "/build/", "/home/", "/root/"})
    EXPECT_EQ(all.find(path), std::string::npos) << path << " in:\n" << all.substr(0, 3000);
}

}  // namespace
}  // namespace cv::usercode
