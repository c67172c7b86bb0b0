// libFuzzer target: app/presets/preset.{h,cpp}. The input is a preset file:
// load_preset_file must return a Preset (with a Report of what it skipped) or
// throw PresetError naming the file; anything else (another exception, a crash,
// a sanitizer report) is a bug. What it accepts must write back and re-read
// with nothing skipped.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "presets/preset.h"

namespace {

std::string temp_path() {
  static std::string path = [] {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir ? dir : "/tmp") + "/cudaviz_fuzz_preset_" + std::to_string(getpid());
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
  try {
    cv::presets::Report report;
    const cv::presets::Preset p = cv::presets::load_preset_file(path, report);
    // Round trip: what was read is written in full and reads back clean.
    cv::presets::Report again;
    (void)cv::presets::parse_preset(nlohmann::json::parse(cv::presets::to_json(p).dump()), again);
    if (!again.clean()) std::abort();
  } catch (const cv::presets::PresetError&) {
  }
  std::remove(path.c_str());
  return 0;
}
