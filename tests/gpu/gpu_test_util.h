#pragma once
// GPU suites call CV_REQUIRE_GPU() first: without a usable device the test is
// reported as skipped (never passed), with the reason.
#include <gtest/gtest.h>

#include "common/device_info.h"

#define CV_REQUIRE_GPU()                                                          \
  do {                                                                            \
    if (!::cv::device_info().available)                                           \
      GTEST_SKIP() << "no CUDA device: " << ::cv::device_info().unavailable_reason; \
  } while (0)
