#pragma once
// Where the shipped data (assets: presets/) is, found from the executable's own
// location, never from the source tree or the working directory, so an
// installed package and a build tree both work from any folder:
//   1. $CUDAVIZ_ASSETS (an explicit override: PathConfig::assets, config/config.h),
//   2. <folder of the executable>/assets          (a build tree: copied at build time),
//   3. <folder of the executable>/../share/cudaviz (an installed prefix: bin/cudaviz).
#include <string>
#include <vector>

namespace cv::io {

struct DataDir {
  std::string path;                // the first candidate holding presets/; "" when none does
  std::vector<std::string> tried;  // every candidate, in order
};

// The running executable's folder (/proc/self/exe); "" when it cannot be read.
std::string executable_dir();

// The candidates above for an executable in `exe_dir`, with `env` the value of
// $CUDAVIZ_ASSETS (nullptr or empty: unset). Pure: no file system access.
std::vector<std::string> data_dir_candidates(const std::string& exe_dir, const char* env);

// The lookup, now (a readlink and a few stats: cheap enough to repeat), with
// `assets` the override ("" : none).
DataDir find_data_dir(const std::string& assets);

// "no shipped data (presets/) in any of: A, B, C" for a failed lookup.
std::string data_dir_error(const DataDir& d);

}  // namespace cv::io
