// "run your kernel" in the labs window on a GPU (bench/kernel_action.h): the
// panel's action runs the lab's built-in variants and then the kernel tab's
// text through `bench kernel`'s code on the lab's data; the row "yours" is
// right (against the CPU reference), timed, and has `vs` for the built-in
// variants measured in that run. A trapping kernel is that row's error, in
// words, and the process goes on.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "bench/kernel_action.h"
#include "gpu/gpu_test_util.h"
#include "ui/kernel_source.h"
#include "ui/lab_panel.h"
#include "usercode/templates/template_registry.h"
#include "test_config.h"

namespace {

using namespace std::chrono_literals;

struct Outcome {
  std::vector<nlohmann::ordered_json> builtin;  // the lab's own rows
  std::optional<nlohmann::ordered_json> yours;
  std::string run_error;
};

Outcome run_yours(const std::string& lab, const std::string& text, long long n) {
  cv::KernelSource source;
  source.start_from(text, "my_" + lab + ".cu");
  cv::LabPanel panel(cv::Backend::Cuda);
  panel.set_kernel_source(&source, test_config().paths);
  cv::LabSettings s;
  s.lab = lab;
  s.n = n;
  s.reps = 3;
  EXPECT_FALSE(panel.apply_settings(s));
  EXPECT_TRUE(panel.refused_actions().empty());
  const auto err = panel.run_action(cv::bench::kYourKernelAction);
  EXPECT_FALSE(err) << *err;
  const auto end = std::chrono::steady_clock::now() + 120s;
  while (panel.running() && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(10ms);
  Outcome o;
  o.run_error = panel.worker().error();
  for (const auto& r : panel.worker().results()) {
    if (r.value("variant", "") == "yours" && r.value("bench", "") == "kernel")
      o.yours = r;
    else
      o.builtin.push_back(r);
  }
  panel.shutdown();
  return o;
}

std::string shipped(const std::string& name) {
  return cv::usercode::read_template_source(*cv::usercode::find_entry(name), test_config().paths);
}

TEST(LabYourKernelGpu, Count3BesideTheBuiltInVariants) {
  CV_REQUIRE_GPU();
  for (const char* name : {"count3", "count3_shared"}) {
    const Outcome o = run_yours("count3", shipped(name), 1 << 20);
    ASSERT_TRUE(o.run_error.empty()) << o.run_error;
    EXPECT_GE(o.builtin.size(), 6u) << name;
    ASSERT_TRUE(o.yours) << name;
    const auto& y = *o.yours;
    ASSERT_FALSE(y.contains("error")) << y.dump();
    EXPECT_EQ(y["correct"], true) << y.dump();
    EXPECT_EQ(y["result"], y["reference"]) << y.dump();
    EXPECT_EQ(y.value("n", 0ll), 1 << 20);
    EXPECT_GT(y.value("ms_median", 0.0), 0.0);
    EXPECT_EQ(y.value("checked", false), true);
    for (const char* k : {"atomic", "shared_tree", "warp_shuffle", "cub", "fast"}) {
      ASSERT_TRUE(y["vs"].contains(k)) << k << " " << y.dump();
      EXPECT_GT(y["vs"][k].get<double>(), 0.0) << k;
    }
  }
}

TEST(LabYourKernelGpu, PiBesideTheBuiltInVariants) {
  CV_REQUIRE_GPU();
  const Outcome o = run_yours("pi", shipped("pi"), 1 << 22);
  ASSERT_TRUE(o.run_error.empty()) << o.run_error;
  EXPECT_GE(o.builtin.size(), 4u);
  ASSERT_TRUE(o.yours);
  const auto& y = *o.yours;
  ASSERT_FALSE(y.contains("error")) << y.dump();
  EXPECT_EQ(y["correct"], true) << y.dump();
  EXPECT_GT(y.value("ms_median", 0.0), 0.0);
  for (const char* k : {"many", "fast"}) {
    ASSERT_TRUE(y["vs"].contains(k)) << k << " " << y.dump();
    EXPECT_GT(y["vs"][k].get<double>(), 0.0) << k;
  }
}

TEST(LabYourKernelGpu, ARacyKernelIsWrongNotAnError) {
  CV_REQUIRE_GPU();
  const Outcome o = run_yours("count3", shipped("count3_racy"), 1 << 20);
  ASSERT_TRUE(o.yours);
  ASSERT_FALSE(o.yours->contains("error")) << o.yours->dump();
  EXPECT_EQ((*o.yours)["correct"], false) << o.yours->dump();
}

TEST(LabYourKernelGpu, ATrapIsTheRowsErrorInWordsAndTheProcessGoesOn) {
  CV_REQUIRE_GPU();
  const Outcome o = run_yours("count3",
                              "// template: count3\n"
                              "extern \"C\" __global__ void count3(cv::Span<const int> data,\n"
                              "                                    cv::Span<unsigned long long> count) {\n"
                              "  __trap();\n"
                              "}\n",
                              4096);
  ASSERT_TRUE(o.run_error.empty()) << o.run_error;  // the run finished; the row says what happened
  EXPECT_FALSE(o.builtin.empty());
  ASSERT_TRUE(o.yours);
  ASSERT_TRUE(o.yours->contains("error")) << o.yours->dump();
  EXPECT_FALSE((*o.yours)["error"].get<std::string>().empty());
  EXPECT_TRUE(o.yours->contains("error_name")) << o.yours->dump();
  EXPECT_TRUE((*o.yours)["correct"].is_null());
  // This process's CUDA context is untouched: the built-in lab runs again.
  const Outcome again = run_yours("count3", shipped("count3"), 4096);
  ASSERT_TRUE(again.yours);
  EXPECT_EQ((*again.yours)["correct"], true) << again.yours->dump();
}

}  // namespace
