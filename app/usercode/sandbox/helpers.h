#pragma once
// Where a helper program lives: beside the running binary (the build tree,
// bin/), in ../lib/cudaviz (installed, Debian policy), else the build path
// compiled in. "" when none is executable.
#include <string>

namespace cv::sandbox {

std::string find_helper(const std::string& name, const std::string& build_path);

}  // namespace cv::sandbox
