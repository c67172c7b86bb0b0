// cudaviz-explain, the process explain runs kernels in: its JSON for a racy
// kernel, and a crash or an endless loop ends only it, with a sentence.
#include <chrono>
#include <fstream>
#include <thread>

#include "emu_test_util.h"
#include "usercode/emu/explain_job.h"
#include "usercode/emu/explain_process.h"

namespace cv::emu::test {
namespace {

std::string write_temp(const BuildDirHandle& d, const std::string& text) {
  const std::string p = d.path() + "/k.cu";
  std::ofstream(p) << text;
  return p;
}

TEST(EmuProcess, RacyCountComesBackAsJson) {
  BuildDirHandle d("/tmp");
  ExplainRequest q;
  q.source_path = write_temp(d, shipped("count3_racy.cu"));
  const ExplainOutcome o = run_explain_process(CUDAVIZ_EXPLAIN_BIN, q);
  ASSERT_TRUE(o.ran) << o.error;
  EXPECT_TRUE(o.reply.value("ok", false)) << o.reply.dump();
  ASSERT_TRUE(o.reply.contains("explain"));
  ASSERT_FALSE(o.reply["explain"]["races"].empty());
  EXPECT_EQ(o.reply["explain"]["races"][0]["buffer"], "count");
  EXPECT_EQ(o.reply["template"], "count3");
}

TEST(EmuProcess, CrashAndEndlessLoopEndOnlyTheHelper) {
  BuildDirHandle d("/tmp");
  ExplainRequest q;
  q.template_name = "count3";
  q.source_path = write_temp(d,
                             "extern \"C\" __global__ void count3(cv::Span<const int> data, unsigned long long* count) {\n"
                             "  *(volatile int*)(16) = 1;\n"
                             "}\n");
  ExplainOutcome o = run_explain_process(CUDAVIZ_EXPLAIN_BIN, q);
  EXPECT_FALSE(o.ran);
  EXPECT_NE(o.error.find("crashed"), std::string::npos) << o.error;
  q.source_path = write_temp(d,
                             "extern \"C\" __global__ void count3(cv::Span<const int> data, unsigned long long* count) {\n"
                             "  while (data.size) { count[0] += 0; }\n"
                             "}\n");
  q.time_limit_s = 4;
  const auto t0 = std::chrono::steady_clock::now();
  o = run_explain_process(CUDAVIZ_EXPLAIN_BIN, q);
  EXPECT_FALSE(o.ran);
  EXPECT_NE(o.error.find("longer than"), std::string::npos) << o.error;
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 8.0);
}

TEST(EmuProcess, JobRunsOffTheCallersThread) {
  ExplainJob job;
  job.start(shipped("count3_shared.cu"), "count3", "c++", "/tmp", CUDAVIZ_EXPLAIN_BIN);
  for (int i = 0; i < 600 && (job.busy() || job.result().version == 0); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const ExplainResult r = job.result();
  ASSERT_EQ(r.version, 1u);
  EXPECT_TRUE(r.ok) << r.error;
  ASSERT_TRUE(r.explain);
  EXPECT_TRUE(r.explain->races.empty());
  EXPECT_FALSE(r.explain->touches.empty());
}

}  // namespace
}  // namespace cv::emu::test
