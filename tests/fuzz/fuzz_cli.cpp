// libFuzzer target: app/cli.{h,cpp}. The input is split into arguments at NUL
// bytes and newlines; parse_command_line must return a Command or throw
// UsageError, nothing else.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> args;
  std::string cur;
  for (size_t i = 0; i < size; ++i) {
    const char c = static_cast<char>(data[i]);
    if (c == '\0' || c == '\n') {
      args.push_back(cur);
      cur.clear();
    } else {
      cur.push_back(c);
    }
  }
  if (!cur.empty() || size == 0) args.push_back(cur);
  if (size == 0) args.clear();

  try {
    const cv::Command cmd = cv::parse_command_line(args);
    // What was accepted must respect the documented ranges.
    auto check_block = [](const std::optional<cv::BlockShape>& b) {
      if (b && (b->x < 1 || b->y < 1 || b->z < 1 || b->threads() > 1024)) std::abort();
    };
    check_block(cmd.run.block);
    check_block(cmd.bench.block);
    for (const auto& s : cmd.sweep.shapes) check_block(s);
    if (cmd.kind == cv::Command::Kind::Sweep && cmd.sweep.shapes.empty()) std::abort();
  } catch (const cv::UsageError&) {
  }
  return 0;
}
