// The emulator's fast path (loop fission, docs/emulator.md) against its
// fibers, through the runner as the app runs kernels: every shipped whole
// kernel and the corpus give byte-identical buffers, and every shipped one
// takes the fast path.
#include "emu_app_util.h"

namespace cv::emu::app_test {
namespace {

TEST(EmuFastPath, EveryWholeKernelGivesTheFibersBuffersByteForByte) {
  if (usercode::find_host_compiler(test_config().paths).empty()) GTEST_SKIP() << "no host C++ compiler";
  usercode::RunnerClient client(usercode::find_runner(test_config().paths.runner), Backend::Cpu);
  int compared = 0;
  for (const Case& c : whole_kernels()) {
    SCOPED_TRACE(c.name);
    if (racy(c)) continue;  // its blocks race on two workers: any two runs may differ
    const usercode::CompileResult built = compile_cpu(c);
    ASSERT_TRUE(built.ok) << built.first_error() << built.error;
    ASSERT_TRUE(client.load(built, 30).ok);
    // Three reps: the scenes' ping-pong buffers swap between them.
    const usercode::LaunchOutcome fast = client.launch(small_launch(c, usercode::Schedule::Fast, 3), 30);
    const usercode::LaunchOutcome fibers = client.launch(small_launch(c, usercode::Schedule::Fibers, 3), 30);
    ASSERT_TRUE(fast.ok) << fast.fault->describe();
    ASSERT_TRUE(fibers.ok) << fibers.fault->describe();
    if (c.path.find("/assets/kernels/") != std::string::npos)
      EXPECT_EQ(fast.reply.value("path", ""), "fission") << fast.reply.value("fast_path_off", "");
    EXPECT_EQ(fibers.reply.value("path", ""), "fibers");
    ASSERT_FALSE(fast.read_back.empty());
    EXPECT_EQ(fast.read_back, fibers.read_back);
    EXPECT_EQ(fast.reply.value("printf", nlohmann::json::array()), fibers.reply.value("printf", nlohmann::json::array()));
    ++compared;
  }
  EXPECT_GE(compared, 15);
}

// A checked s[i] out of range after a barrier, by thread (5,2,0) of block 2 only:
// the fast path (whose loops keep the thread in the emulator's context where
// an access may record a fault) names the thread, block, index and line the
// fibers name.
TEST(EmuFastPath, AnOutOfRangeNamesTheFibersThreadAndBlock) {
  if (usercode::find_host_compiler(test_config().paths).empty()) GTEST_SKIP() << "no host C++ compiler";
  Case c{"oor.cu", "oor.cu",
         "// template: reverse\n"
         "extern \"C\" __global__ void reverse(cv::Span<const int> in, cv::Span<int> out) {\n"
         "  __shared__ int tile[256];\n"
         "  const unsigned long long i = cv::global_index();\n"
         "  const unsigned t = threadIdx.y * blockDim.x + threadIdx.x;\n"
         "  tile[t] = i < in.size ? in[i] : 0;\n"
         "  __syncthreads();\n"
         "  if (i < in.size) out[i == 645 ? in.size + 3 : in.size - 1 - i] = tile[t];\n"
         "}\n",
         usercode::find_template("reverse")};
  usercode::CompileRequest req;
  req.source = c.source;
  req.template_name = "reverse";
  req.build = usercode::BuildKind::Cpu;
  req.guard = true;  // checked spans, as the window and bench build by default
  req.file_name = c.path;
  req.paths = test_config().paths;
  const usercode::CompileResult built = usercode::compile(req);
  ASSERT_TRUE(built.ok) << built.first_error() << built.error;
  ASSERT_TRUE(built.checked);
  usercode::RunnerClient client(usercode::find_runner(test_config().paths.runner), Backend::Cpu);
  ASSERT_TRUE(client.load(built, 30).ok);
  auto run = [&](usercode::Schedule s, long long n = 1000) {
    usercode::Workload w = usercode::first_launch(*c.spec, n, {64, 4, 1});
    usercode::LaunchRequest r = usercode::make_launch(*c.spec, w, "editor");
    r.schedule = s;
    return client.launch(r, 30);
  };
  const usercode::LaunchOutcome right = run(usercode::Schedule::Fast, 600);  // (645 is past the end: no fault)
  ASSERT_TRUE(right.ok) << right.fault->describe();
  EXPECT_EQ(right.reply.value("path", ""), "fission") << right.reply.value("fast_path_off", "");
  const usercode::LaunchOutcome fast = run(usercode::Schedule::Fast), fibers = run(usercode::Schedule::Fibers);
  ASSERT_TRUE(fast.fault && fast.fault->out_of_range);
  ASSERT_TRUE(fibers.fault && fibers.fault->out_of_range);
  const usercode::OutOfRange &a = *fast.fault->out_of_range, &b = *fibers.fault->out_of_range;
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(a.thread[k], b.thread[k]) << k;
    EXPECT_EQ(a.block[k], b.block[k]) << k;
  }
  EXPECT_EQ(b.thread[0], 5u);
  EXPECT_EQ(b.thread[1], 2u);
  EXPECT_EQ(b.block[0], 2u);
  EXPECT_EQ(a.index, b.index);
  EXPECT_EQ(a.line, b.line);
  EXPECT_EQ(a.line, 8);
  EXPECT_EQ(fast.fault->describe(), fibers.fault->describe());
}

// `if (c) atomicAdd(&count[k], v)` with k the same for the block, out of range
// in block 2 only: the fast path sums it without a branch and tests the
// address without recording; the access, made where the condition first
// holds, names the thread, block, index and line the fibers name.
TEST(EmuFastPath, AConditionalAtomicOutOfRangeNamesTheFibersThread) {
  if (usercode::find_host_compiler(test_config().paths).empty()) GTEST_SKIP() << "no host C++ compiler";
  const std::string source =
      "// template: count3\n"
      "extern \"C\" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {\n"
      "  const unsigned long long i = cv::global_index();\n"
      "  const unsigned long long mine = i < data.size && data[i] % 3 == 0;\n"
      "  if (mine) atomicAdd(&count[blockIdx.x == 2 ? 1000000 : 0], mine);\n"
      "}\n";
  usercode::CompileRequest req;
  req.source = source;
  req.template_name = "count3";
  req.build = usercode::BuildKind::Cpu;
  req.guard = true;
  req.file_name = "atomic_oor.cu";
  req.paths = test_config().paths;
  const usercode::CompileResult built = usercode::compile(req);
  ASSERT_TRUE(built.ok) << built.first_error() << built.error;
  usercode::RunnerClient client(usercode::find_runner(test_config().paths.runner), Backend::Cpu);
  ASSERT_TRUE(client.load(built, 30).ok);
  const usercode::TemplateSpec& spec = *usercode::find_template("count3");
  auto run = [&](usercode::Schedule s, long long n) {
    usercode::Workload w = usercode::first_launch(spec, n, {64, 1, 1});
    usercode::LaunchRequest r = usercode::make_launch(spec, w, "editor");
    r.schedule = s;
    return client.launch(r, 30);
  };
  const usercode::LaunchOutcome right = run(usercode::Schedule::Fast, 128);  // two blocks: no fault
  ASSERT_TRUE(right.ok) << right.fault->describe();
  EXPECT_EQ(right.reply.value("path", ""), "fission") << right.reply.value("fast_path_off", "");
  const usercode::LaunchOutcome fast = run(usercode::Schedule::Fast, 1000), fibers = run(usercode::Schedule::Fibers, 1000);
  ASSERT_TRUE(fast.fault && fast.fault->out_of_range);
  ASSERT_TRUE(fibers.fault && fibers.fault->out_of_range);
  const usercode::OutOfRange &a = *fast.fault->out_of_range, &b = *fibers.fault->out_of_range;
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(a.thread[k], b.thread[k]) << k;
    EXPECT_EQ(a.block[k], b.block[k]) << k;
  }
  EXPECT_EQ(b.block[0], 2u);
  EXPECT_EQ(a.index, 1000000);
  EXPECT_EQ(a.index, b.index);
  EXPECT_EQ(a.line, 5);
  EXPECT_EQ(a.line, b.line);
  EXPECT_EQ(fast.fault->describe(), fibers.fault->describe());
}

}  // namespace
}  // namespace cv::emu::app_test
