#pragma once
// GPU suites call CV_REQUIRE_GPU() first: without a usable device the test is
// reported as skipped (never passed), with the reason.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "common/device_info.h"

#define CV_REQUIRE_GPU()                                                          \
  do {                                                                            \
    if (!::cv::device_info().available)                                           \
      GTEST_SKIP() << "no CUDA device: " << ::cv::device_info().unavailable_reason; \
  } while (0)

namespace cv {
// Sanitizer run (CUDAVIZ_SANITIZER_RUN set, not empty, not "0"; scripts/gpu_check.sh
// sets it for compute-sanitizer): the slow suites shrink their sizes, steps and
// block shapes so every kernel still runs and is checked exactly, at a size the
// sanitizer can get through; tests that cannot shrink skip with the reason.
inline bool sanitizer_run() {
  const char* v = std::getenv("CUDAVIZ_SANITIZER_RUN");
  return v && *v && std::strcmp(v, "0") != 0;
}
// The compute-sanitizer tool of a sanitizer run (CUDAVIZ_SANITIZER_TOOL, which
// scripts/gpu_check.sh sets: "memcheck", "racecheck", ...); "" when not named.
inline std::string sanitizer_tool() {
  const char* v = std::getenv("CUDAVIZ_SANITIZER_TOOL");
  return sanitizer_run() && v ? v : "";
}
}  // namespace cv
