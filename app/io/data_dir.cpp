#include "io/data_dir.h"

#include <filesystem>

namespace cv::io {

namespace fs = std::filesystem;

std::string executable_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? "" : exe.parent_path().string();
}

std::vector<std::string> data_dir_candidates(const std::string& exe_dir, const char* env) {
  std::vector<std::string> c;
  if (env && *env) c.push_back(env);
  if (!exe_dir.empty()) {
    c.push_back((fs::path(exe_dir) / "assets").string());
    c.push_back((fs::path(exe_dir).parent_path() / "share" / "cudaviz").string());
  }
  return c;
}

DataDir find_data_dir(const std::string& assets) {
  DataDir d;
  d.tried = data_dir_candidates(executable_dir(), assets.c_str());
  std::error_code ec;
  for (const auto& c : d.tried)
    if (fs::is_directory(fs::path(c) / "presets", ec)) {
      d.path = c;
      break;
    }
  return d;
}

std::string data_dir_error(const DataDir& d) {
  std::string s = "no shipped data (presets/) in any of: ";
  for (size_t i = 0; i < d.tried.size(); ++i) s += (i ? ", " : "") + d.tried[i];
  if (d.tried.empty()) s += "(none: /proc/self/exe unreadable and CUDAVIZ_ASSETS unset)";
  return s;
}

}  // namespace cv::io
