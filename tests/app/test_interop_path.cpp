// The transfer-path choice of InteropBuffer as data: CUDAVIZ_INTEROP parsing
// and the fallback chain external -> map -> copy with its reasons.
#include <gtest/gtest.h>

#include <stdexcept>

#include "gl/interop_path.h"

namespace {

using cv::InteropPath;

TEST(InteropConfig, DefaultsToExternalAndTwoBuffers) {
  const cv::InteropConfig c = cv::parse_interop_config(nullptr, nullptr);
  EXPECT_EQ(c.start, InteropPath::External);
  EXPECT_FALSE(c.single);
  EXPECT_EQ(cv::parse_interop_config("", "0").start, InteropPath::External);
}

TEST(InteropConfig, ParsesPathAndBufferCountInAnyOrder) {
  cv::InteropConfig c = cv::parse_interop_config("map,single", nullptr);
  EXPECT_EQ(c.start, InteropPath::Map);
  EXPECT_TRUE(c.single);
  c = cv::parse_interop_config("single,copy", nullptr);
  EXPECT_EQ(c.start, InteropPath::Copy);
  EXPECT_TRUE(c.single);
  c = cv::parse_interop_config("double", nullptr);  // perf-gpu's spelling still works
  EXPECT_EQ(c.start, InteropPath::External);
  EXPECT_FALSE(c.single);
  EXPECT_EQ(cv::parse_interop_config("external", nullptr).start, InteropPath::External);
}

TEST(InteropConfig, ForceCopyWins) {
  EXPECT_EQ(cv::parse_interop_config("external", "1").start, InteropPath::Copy);
  EXPECT_EQ(cv::parse_interop_config(nullptr, "yes").start, InteropPath::Copy);
}

TEST(InteropConfig, RejectsUnknownWordsNamingThem) {
  try {
    cv::parse_interop_config("map,fast", nullptr);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'fast'"), std::string::npos) << what;
    EXPECT_NE(what.find("external, map, copy"), std::string::npos) << what;
  }
  EXPECT_THROW(cv::parse_interop_config("Map", nullptr), std::invalid_argument);
}

TEST(InteropChoice, FirstWorkingPathWithoutReason) {
  const cv::InteropChoice c = cv::choose_interop_path(InteropPath::External, "", "");
  EXPECT_EQ(c.path, InteropPath::External);
  EXPECT_EQ(c.reason, "");
  EXPECT_EQ(cv::choose_interop_path(InteropPath::Map, "ignored", "").path, InteropPath::Map);
  EXPECT_EQ(cv::choose_interop_path(InteropPath::Map, "ignored", "").reason, "");
}

TEST(InteropChoice, ExternalFailureFallsBackToMapWithReason) {
  const cv::InteropChoice c =
      cv::choose_interop_path(InteropPath::External, "GL_EXT_memory_object_fd not supported", "");
  EXPECT_EQ(c.path, InteropPath::Map);
  EXPECT_EQ(c.reason, "external memory: GL_EXT_memory_object_fd not supported");
}

TEST(InteropChoice, BothFailingEndInCopyWithBothReasons) {
  const cv::InteropChoice c =
      cv::choose_interop_path(InteropPath::External, "cuMemCreate failed: CUDA_ERROR_NOT_SUPPORTED",
                              "cudaGraphicsGLRegisterBuffer: cudaErrorUnknown");
  EXPECT_EQ(c.path, InteropPath::Copy);
  EXPECT_EQ(c.reason,
            "external memory: cuMemCreate failed: CUDA_ERROR_NOT_SUPPORTED; "
            "map: cudaGraphicsGLRegisterBuffer: cudaErrorUnknown");
  const cv::InteropChoice m = cv::choose_interop_path(InteropPath::Map, "", "cudaErrorUnknown");
  EXPECT_EQ(m.path, InteropPath::Copy);
  EXPECT_EQ(m.reason, "map: cudaErrorUnknown");
}

TEST(InteropChoice, ForcedCopySaysSo) {
  const cv::InteropChoice c = cv::choose_interop_path(InteropPath::Copy, "", "");
  EXPECT_EQ(c.path, InteropPath::Copy);
  EXPECT_EQ(c.reason, "copy path forced");
}

}  // namespace
