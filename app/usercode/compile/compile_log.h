#pragma once
// Compiler output -> Diagnostics at the student's lines (pure, tested), and
// the checks a source passes before any compiler sees it.
#include <string>
#include <string_view>
#include <vector>

#include "usercode/compile/compile.h"

namespace cv::usercode {

// NVRTC: "FILE(LINE): error: MESSAGE", the echoed source line, a caret line
// (the column). Messages from other files (the prelude, the wrapper) get line
// 0 and say where they came from.
std::vector<Diagnostic> parse_nvrtc_log(const std::string& log, const std::string& student_file);
// GCC / Clang: "FILE:LINE:COL: error: MESSAGE".
std::vector<Diagnostic> parse_host_log(const std::string& log, const std::string& student_file);

// Errors found without compiling: too big (names the size and kMaxSourceBytes),
// not text (binary data), #include / #line (no file system, no system headers:
// only the prelude exists), a block comment never closed. Empty when fine.
std::vector<Diagnostic> check_source(std::string_view source);

// ptxas -v lines in the log for `entry` -> registers, stack/local, spills, static shared.
KernelResources parse_ptxas_resources(const std::string& log, const std::string& entry);

}  // namespace cv::usercode
