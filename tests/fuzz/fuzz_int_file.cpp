// libFuzzer target: kernels/common/int_file.{h,cpp}. Any input, as a file, must
// either parse or be refused with std::invalid_argument; any other exception,
// a crash or a sanitizer report is a bug.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "common/int_file.h"

namespace {

std::string temp_path() {
  static std::string path = [] {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir ? dir : "/tmp") + "/cudaviz_fuzz_int_file_" + std::to_string(getpid());
  }();
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = temp_path();
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) std::abort();
  if (size && std::fwrite(data, 1, size, f) != size) std::abort();
  std::fclose(f);

  // Small limits so the max_values path is reached too.
  cv::IntFileLimits limits;
  limits.max_values = 64;
  try {
    const auto values = cv::read_int_file(path, limits);
    if (values.empty() || values.size() > limits.max_values) std::abort();
  } catch (const std::invalid_argument&) {
  }
  try {
    const cv::IntRows rows = cv::read_int_rows(path, limits);
    // The row index must cover the values exactly, in order, with no empty rows.
    if (rows.offsets.front() != 0 || rows.offsets.back() != rows.values.size()) std::abort();
    for (size_t r = 0; r < rows.rows(); ++r)
      if (rows.offsets[r] >= rows.offsets[r + 1]) std::abort();
  } catch (const std::invalid_argument&) {
  }
  std::remove(path.c_str());
  return 0;
}
