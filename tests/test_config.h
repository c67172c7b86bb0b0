#pragma once
// The tests' configuration: the process environment read the way main() reads
// it (ctest sets CUDAVIZ_ASSETS for the suites: tests/CMakeLists.txt), for
// functions that take the app's Config or its paths. Read at each call, so a
// test that sets a variable first sees it.
#include <cstdlib>

#include "config/config.h"

inline cv::Config test_config() {
  return cv::config_from_environment([](const char* name) { return std::getenv(name); });
}
