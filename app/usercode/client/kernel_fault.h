#pragma once
// What ended a run of a student's kernel, as the app shows it (fault_words.cpp
// puts it in a student's words).
#include <optional>
#include <string>

#include "common/block_shape.h"

namespace cv::usercode {

// The first out-of-range index a checked build saw (prelude's checked accessors).
struct OutOfRange {
  long long index = 0, size = 0;
  unsigned thread[3] = {0, 0, 0}, block[3] = {0, 0, 0};
  int line = 0;  // the student's line (0: an unchecked [] access)
};

struct KernelFault {
  std::string error_name;   // "cudaErrorIllegalAddress", "SIGSEGV", "time-out", ...
  std::string explanation;  // the error in a student's words, with what to look for
  std::string kernel;       // the entry point that ran
  BlockShape block;         // the launch shape
  unsigned grid[3] = {1, 1, 1};
  std::optional<OutOfRange> out_of_range;  // checked mode only
  int line = 0;  // the runner's error_line: the guard's site, the emulator's fault; 0 when unknown
  // All of it in a few lines for the editor / the scene panel.
  std::string describe() const;
  // The student's line the editor marks (0: none): the out-of-range access's,
  // else the one the runner named (the guard's site, the emulator's fault).
  int error_line() const { return out_of_range && out_of_range->line ? out_of_range->line : line; }
};

}  // namespace cv::usercode
