// The emulator's fast path (loop fission, docs/emulator.md) against its
// fibers, through the runner as the app runs kernels: every shipped whole
// kernel and the corpus give byte-identical buffers, and every shipped one
// takes the fast path. Built as the app builds them with the guard on (the
// default), checked: that build's fast copies (accesses tested ahead, range
// loops, searches and shared counters) are a superset of the unchecked one's.
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
    const usercode::CompileResult built = compile_cpu(c, true);
    ASSERT_TRUE(built.ok) << built.first_error() << built.error;
    ASSERT_TRUE(client.load(built, 30).ok);
    // Three reps: the scenes' ping-pong buffers swap between them.
    const usercode::LaunchOutcome fast = client.launch(small_launch(c, usercode::Schedule::Fast, 3), 30);
    const usercode::LaunchOutcome fibers = client.launch(small_launch(c, usercode::Schedule::Fibers, 3), 30);
    // A wrong corpus kernel's access out of range: named alike on both paths.
    ASSERT_EQ(fast.ok, fibers.ok) << (fast.ok ? fibers : fast).fault->describe();
    if (!fast.ok) {
      EXPECT_EQ(fast.fault->describe(), fibers.fault->describe());
      continue;
    }
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

// `c` built with checked spans and loaded into `client`.
void load_checked(const Case& c, usercode::RunnerClient& client) {
  const usercode::CompileResult built = compile_cpu(c, true);
  ASSERT_TRUE(built.ok) << built.first_error() << built.error;
  ASSERT_TRUE(built.checked);
  ASSERT_TRUE(client.load(built, 30).ok);
}

usercode::LaunchOutcome launch_at(usercode::RunnerClient& client, const Case& c, usercode::Schedule s, long long n,
                                  const BlockShape& block) {
  usercode::LaunchRequest r = usercode::make_launch(*c.spec, usercode::first_launch(*c.spec, n, block), "editor");
  r.schedule = s;
  return client.launch(r, 30);
}

// Both paths stopped at an index out of range, naming the same thread, block,
// index and line in the same words.
void expect_the_fibers_fault(const usercode::LaunchOutcome& fast, const usercode::LaunchOutcome& fibers) {
  ASSERT_TRUE(fast.fault && fast.fault->out_of_range);
  ASSERT_TRUE(fibers.fault && fibers.fault->out_of_range);
  const usercode::OutOfRange &a = *fast.fault->out_of_range, &b = *fibers.fault->out_of_range;
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(a.thread[k], b.thread[k]) << k;
    EXPECT_EQ(a.block[k], b.block[k]) << k;
  }
  EXPECT_EQ(a.index, b.index);
  EXPECT_EQ(a.line, b.line);
  EXPECT_EQ(fast.fault->describe(), fibers.fault->describe());
}

// `c` built checked and run on the fast path and the fibers: at `right_n`
// elements right and on the fast path, at `n` stopped at the same index out of
// range by the same thread (expect_the_fibers_fault); both faulted runs out.
void faults_both_ways(const Case& c, const BlockShape& block, long long right_n, long long n,
                      usercode::LaunchOutcome& fast, usercode::LaunchOutcome& fibers) {
  usercode::RunnerClient client(usercode::find_runner(test_config().paths.runner), Backend::Cpu);
  ASSERT_NO_FATAL_FAILURE(load_checked(c, client));
  const usercode::LaunchOutcome right = launch_at(client, c, usercode::Schedule::Fast, right_n, block);
  ASSERT_TRUE(right.ok) << right.fault->describe();
  EXPECT_EQ(right.reply.value("path", ""), "fission") << right.reply.value("fast_path_off", "");
  fast = launch_at(client, c, usercode::Schedule::Fast, n, block);
  fibers = launch_at(client, c, usercode::Schedule::Fibers, n, block);
  ASSERT_NO_FATAL_FAILURE(expect_the_fibers_fault(fast, fibers));
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
  usercode::LaunchOutcome fast, fibers;
  // (at 600 elements, 645 is past the end: no fault)
  ASSERT_NO_FATAL_FAILURE(faults_both_ways(c, BlockShape{64, 4, 1}, 600, 1000, fast, fibers));
  const usercode::OutOfRange& b = *fibers.fault->out_of_range;
  EXPECT_EQ(b.thread[0], 5u);
  EXPECT_EQ(b.thread[1], 2u);
  EXPECT_EQ(b.block[0], 2u);
  EXPECT_EQ(fast.fault->out_of_range->line, 8);
}

// `if (c) atomicAdd(&count[k], v)` with k the same for the block, out of range
// in block 2 only: the fast path sums it in the loop over threads and makes
// the access once after it, for the first thread whose condition held, which
// names the thread, block, index and line the fibers name.
TEST(EmuFastPath, AConditionalAtomicOutOfRangeNamesTheFibersThread) {
  if (usercode::find_host_compiler(test_config().paths).empty()) GTEST_SKIP() << "no host C++ compiler";
  Case c{"atomic_oor.cu", "atomic_oor.cu",
         "// template: count3\n"
         "extern \"C\" __global__ void count3(cv::Span<const int> data, cv::Span<unsigned long long> count) {\n"
         "  const unsigned long long i = cv::global_index();\n"
         "  const unsigned long long mine = i < data.size && data[i] % 3 == 0;\n"
         "  if (mine) atomicAdd(&count[blockIdx.x == 2 ? 1000000 : 0], mine);\n"
         "}\n",
         usercode::find_template("count3")};
  usercode::LaunchOutcome fast, fibers;
  // (at 128 elements, two blocks: no fault)
  ASSERT_NO_FATAL_FAILURE(faults_both_ways(c, BlockShape{64, 1, 1}, 128, 1000, fast, fibers));
  EXPECT_EQ(fibers.fault->out_of_range->block[0], 2u);
  EXPECT_EQ(fast.fault->out_of_range->index, 1000000);
  EXPECT_EQ(fast.fault->out_of_range->line, 5);
}

}  // namespace
}  // namespace cv::emu::app_test
