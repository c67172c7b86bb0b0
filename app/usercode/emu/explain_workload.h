#pragma once
// The small launch `explain` runs a template's kernel on (docs/emulator.md,
// "Default sizes"): its buffers and scalar arguments, built the way the app
// launches the template, so any kernel file of that template runs. The
// counter arguments are laid out as a cv::Span of one element, which also
// reads as a plain pointer, so the older `unsigned long long*` signatures run too.
#include <memory>
#include <string>
#include <vector>

#include "usercode/emu/build.h"
#include "usercode/launch_abi.h"

namespace cv::emu {

struct Workload {
  std::string entry;                       // the extern "C" kernel
  std::vector<std::string> includes;       // prelude headers before line 1
  std::string after;                       // text after the student's file (a wrapper kernel)
  usercode::LaunchShape shape;
  std::vector<void*> params;               // into `storage`
  std::vector<usercode::BufferView> buffers;
  std::shared_ptr<void> storage;           // keeps the arguments' memory
  long long n = 0;
};

// template: "count3", "pi", "fountain_kernel", "fountain_particle". n <= 0:
// the default size; block: threads per block (x, y); zero: the default.
// Throws std::invalid_argument for an unknown template or a size beyond the limits.
Workload make_workload(const std::string& tmpl, long long n, unsigned block_x, unsigned block_y);

// The app's prelude headers (app/usercode/prelude), as the compiler sees them.
std::vector<TextFile> app_prelude_headers();

}  // namespace cv::emu
