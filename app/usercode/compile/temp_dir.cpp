#include "usercode/compile/temp_dir.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <vector>

namespace cv::usercode {

TempDir::TempDir(const std::string& base) {
  std::string pattern = (base.empty() ? std::string("/tmp") : base) + "/cudaviz-kernel-XXXXXX";
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data()))
    throw std::runtime_error("mkdtemp(" + pattern + "): " + std::strerror(errno));
  path_ = buf.data();
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);  // best effort: nothing to report to
}

}  // namespace cv::usercode
