#pragma once
// A private directory under `base` ($TMPDIR: PathConfig::tmpdir; mkdtemp), removed with everything in it
// when the last owner lets go: where the CPU path's source and .so live.
#include <string>

namespace cv::usercode {

class TempDir {
 public:
  explicit TempDir(const std::string& base);  // throws std::runtime_error naming the call and errno
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace cv::usercode
