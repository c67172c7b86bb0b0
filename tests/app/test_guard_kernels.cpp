// The guard on real NVRTC output (docs/guard.md), no GPU needed: every
// shipped kernel and example in the kernels folder compiles guarded for
// sm_75 and sm_90, every memory instruction is checked (an independent count
// of them equals the sites marked in the guarded PTX) and nvJitLink builds the
// cubin; constructs the guard cannot check are refused at the student's line;
// --guard on|off on the command line.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli.h"
#include "usercode/compile/compile.h"
#include "usercode/compile/jitlink.h"
#include "usercode/guard/ptx_guard.h"
#include "usercode/templates/template_registry.h"
#include "test_config.h"

namespace cv::usercode {
namespace {

bool nvrtc_missing() { return nvrtc_status().find("NVRTC 1") != 0; }

CompileResult guarded(const std::string& source, const std::string& arch) {
  CompileRequest req;
  req.source = source;
  req.arch = arch;
  req.guard = true;
  return compile(req);
}

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(GuardKernels, EveryShippedKernelIsGuardedAndLinks) {
  if (nvrtc_missing()) GTEST_SKIP() << nvrtc_status();
  ASSERT_TRUE(guard::jitlink_status().empty()) << guard::jitlink_status();
  const std::string dir = kernel_dir(test_config().paths);
  ASSERT_FALSE(dir.empty());
  int files = 0;
  // Every .cu file in the folder, so kernels added later are covered too.
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".cu") continue;
    ++files;
    const std::string src = slurp(e.path());
    for (const char* arch : {"sm_75", "sm_90"}) {
      const CompileResult c = guarded(src, arch);
      SCOPED_TRACE(e.path().filename().string() + " " + arch);
      ASSERT_TRUE(c.ok) << c.first_error() << c.error << c.log;
      ASSERT_TRUE(c.guarded.ok) << c.guarded.error;
      EXPECT_GT(c.guarded.memory_instructions, 0u);
      EXPECT_EQ(c.guarded.memory_instructions, guard::count_memory_instructions(c.ptx));
      EXPECT_EQ(c.guarded.guarded_instructions, c.guarded.memory_instructions);
      EXPECT_EQ(guard::count_marked_sites(c.guarded.ptx), c.guarded.memory_instructions);
      EXPECT_FALSE(c.cubin.empty()) << "nvJitLink builds the guarded cubin";
      EXPECT_TRUE(c.resources.known) << "ptxas figures of the guarded code";
      // Sites carry the student's lines (the first memory access is in the file).
      int with_line = 0;
      for (const guard::GuardSite& s : c.guarded.sites) with_line += s.line > 0;
      EXPECT_GT(with_line, 0);
    }
  }
  EXPECT_GE(files, 8);
}

TEST(GuardKernels, GuardedAndCheckedTogether) {
  if (nvrtc_missing()) GTEST_SKIP() << nvrtc_status();
  CompileRequest req;
  req.source = read_template_source(*find_template("fountain_kernel"), test_config().paths);
  req.arch = "sm_90";
  req.guard = true;
  req.checked = true;
  const CompileResult c = compile(req);
  ASSERT_TRUE(c.ok) << c.first_error() << c.error;
  // checked mode's own variables are admitted by the table after the buffers.
  EXPECT_NE(std::find(c.guarded.module_globals.begin(), c.guarded.module_globals.end(), "cv_fault"),
            c.guarded.module_globals.end());
  EXPECT_EQ(c.guarded.guarded_instructions, c.guarded.memory_instructions);
}

// The tiled n-body example's unrolled tile loop (8 reads of tile[] a trip)
// is checked a group at a time, and the guarded kernel needs no more
// registers than a few scratch ones: the guard's cost in that loop was 2x
// when each read was checked under its own predicate (docs/guard.md).
TEST(GuardKernels, TheTiledNBodyLoopIsCheckedInGroups) {
  if (nvrtc_missing()) GTEST_SKIP() << nvrtc_status();
  const TemplateEntry* e = find_entry("nbody_tiled");
  ASSERT_NE(e, nullptr);
  for (const char* arch : {"sm_75", "sm_90"}) {
    SCOPED_TRACE(arch);
    CompileRequest req;
    req.source = read_template_source(*e, test_config().paths);
    req.arch = arch;
    const CompileResult raw = compile(req);
    req.guard = true;
    const CompileResult c = compile(req);
    ASSERT_TRUE(raw.ok && c.ok) << c.first_error() << c.error;
    EXPECT_GE(c.guarded.grouped_instructions, 8u);
    EXPECT_NE(c.guarded.ptx.find("8 accesses through"), std::string::npos);
    ASSERT_TRUE(raw.resources.known && c.resources.known);
    EXPECT_LE(c.resources.registers, raw.resources.registers + 16) << "raw " << raw.resources.registers;
  }
}

TEST(GuardKernels, UnguardedCompileIsUnchanged) {
  if (nvrtc_missing()) GTEST_SKIP() << nvrtc_status();
  CompileRequest req;
  req.source = read_template_source(*find_template("count3"), test_config().paths);
  req.arch = "sm_90";
  const CompileResult c = compile(req);
  ASSERT_TRUE(c.ok);
  EXPECT_FALSE(c.guarded.ok);
  EXPECT_EQ(c.ptx.find("cv_guard"), std::string::npos);
}

// A kernel whose line 4 holds something the guard cannot check: refused there.
void expect_refused(const std::string& line4, const std::string& words) {
  const std::string src =
      "// template: count3\n"
      "extern \"C\" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {\n"
      "  const unsigned long long i = cv::global_index();\n" +
      line4 + "\n  if (i < data.size && data[i] % 3 == 0) atomicAdd(&count[0], 1ull);\n}\n";
  const CompileResult c = guarded(src, "sm_90");
  SCOPED_TRACE(line4);
  EXPECT_FALSE(c.ok);
  EXPECT_TRUE(c.cubin.empty()) << "nothing runnable comes out of a refused kernel";
  ASSERT_FALSE(c.diagnostics.empty()) << c.error;
  const Diagnostic& d = c.diagnostics.back();
  EXPECT_EQ(d.line, 4) << d.message;
  EXPECT_NE(d.message.find(words), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("guard"), std::string::npos) << d.message;
  // The same kernel compiles with the guard off.
  CompileRequest off;
  off.source = src;
  off.arch = "sm_90";
  EXPECT_TRUE(compile(off).ok);
}

TEST(GuardKernels, UncheckableCodeIsRefusedAtItsLine) {
  if (nvrtc_missing()) GTEST_SKIP() << nvrtc_status();
  expect_refused("  asm volatile(\"prefetch.global.L2 [%0];\" :: \"l\"(data.data + i));", "prefetch");
  expect_refused("  int* p = static_cast<int*>(malloc(4)); if (p) { *p = 1; free(p); }", "malloc");
  expect_refused("  void (*volatile fp)() = nullptr; if (i == 1u << 31) fp();", "function pointer");
}

// The fault kernels of the GPU tests (tests/gpu/test_guard_gpu.cpp): the
// faulting access is a checked site of the right space at the right line.
TEST(GuardKernels, FaultKernelsHaveTheirSites) {
  if (nvrtc_missing()) GTEST_SKIP() << nvrtc_status();
  auto fountain_with = [](const std::string& body) {
    return "// template: fountain_kernel\n"
           "extern \"C\" __global__ void fountain_step(cv::Span<const float4> in, cv::Span<float4> out,\n"
           "    cv::Span<float> vy, cv::Grid g, cv::Frame f, cv::Params p, cv::Ids ids) {\n"
           "  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n" + body + "\n}\n";
  };
  struct Case {
    std::string body, access, space;
    int line;
  } cases[] = {
      {"  if (i < g.count) out.data[i + (1ull << 30)] = make_float4(1, 2, 3, 4);", "write", "global", 5},
      {"  if (i < g.count) *reinterpret_cast<float*>(0x7f00000000ull + 4096ull * i) = 1.f;", "write", "generic", 5},
      {"  __shared__ float s[256];\n  volatile float* vs = s;\n  vs[threadIdx.x + 100000u] = 1.f;\n"
       "  __syncthreads();\n  if (i < g.count) vy.data[i] = vs[threadIdx.x];", "write", "shared", 7},
      {"  float a[8];\n  for (int k = 0; k < 8; ++k) a[k] = g.width * k + i;\n"
       "  volatile unsigned far = 1u << 26;\n  if (i < g.count) vy.data[i] = a[(i & 7) + far];", "read", "local", 8},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.body);
    const CompileResult c = guarded(fountain_with(k.body), "sm_90");
    ASSERT_TRUE(c.ok) << c.first_error() << c.error;
    bool found = false;
    for (const guard::GuardSite& s : c.guarded.sites)
      found = found || (s.access == k.access && s.space == k.space && s.line == k.line && !s.proven);
    EXPECT_TRUE(found);
    EXPECT_EQ(c.guarded.guarded_instructions, c.guarded.memory_instructions);
  }
}

TEST(GuardKernels, TheGuardFlag) {
  auto parse = [](std::vector<std::string> a) { return parse_command_line(a); };
  EXPECT_TRUE(parse({"bench", "kernel", "--source", "k.cu"}).bench.guard) << "on by default";
  EXPECT_FALSE(parse({"bench", "kernel", "--source", "k.cu", "--guard", "off"}).bench.guard);
  EXPECT_TRUE(parse({"bench", "kernel", "--source", "k.cu", "--guard=on"}).bench.guard);
  EXPECT_TRUE(parse({"--kernel", "k.cu"}).run.guard);
  EXPECT_FALSE(parse({"--kernel", "k.cu", "--guard", "off"}).run.guard);
  EXPECT_THROW(parse({"bench", "kernel", "--source", "k.cu", "--guard", "maybe"}), UsageError);
  EXPECT_THROW(parse({"--guard", "1"}), UsageError);
  EXPECT_THROW(parse({"bench", "fountain", "--guard", "on"}), UsageError) << "only bench kernel has it";
}

}  // namespace
}  // namespace cv::usercode
