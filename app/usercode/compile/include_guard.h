#pragma once
// Before any compiler reads a student's file: every way the text can ask a
// preprocessor to read, test or name a file on the teacher's machine is
// refused with an error at its line. The text is first seen as the compilers
// see it (trigraphs ??= and ??/, backslash-newline splices, also with
// spaces before the newline, the digraph %: for #, comments as spaces), then
// `#` followed by include, include_next, import, embed or line (anywhere in
// code, with any whitespace or comments between), __has_include (any
// spelling), `#pragma` or `_Pragma("...")` naming include, import, embed or
// GCC's dependency, and __BASE_FILE__ / __FILE_NAME__ (the build directory's
// path) are refused. Conservative: a false alarm costs a student a rename, a
// miss would show a file. The compilers also run without the file system
// (docs/kernels.md "Code from the network"), so a spelling this misses
// still finds no file.
#include <string_view>
#include <vector>

#include "usercode/compile/compile.h"

namespace cv::usercode {

std::vector<Diagnostic> refused_file_access(std::string_view source);

}  // namespace cv::usercode
