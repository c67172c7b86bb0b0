#include "usercode/sandbox/helpers.h"

#include <unistd.h>

#include <filesystem>

namespace cv::sandbox {

std::string find_helper(const std::string& name, const std::string& build_path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec)
    for (const fs::path& p : {self.parent_path() / name, self.parent_path().parent_path() / "lib" / "cudaviz" / name})
      if (access(p.c_str(), X_OK) == 0) return p.string();
  if (!build_path.empty() && access(build_path.c_str(), X_OK) == 0) return build_path;
  return "";
}

}  // namespace cv::sandbox
