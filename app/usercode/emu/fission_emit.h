#pragma once
// The fast path's code for one analysed kernel (fission.h): a function that
// runs one block as loops over its threads between barriers and warp
// operations, written from the kernel's own text.
#include <string>

#include "usercode/emu/fission_plan.h"

namespace cv::emu::fission {

struct Emitted {
  bool ok = false;
  std::string why;  // a sentence when not ok
  int line = 0;
  std::string code;  // `static void cv_fis_<name>(params) {...}`
};

// `file_name`: the student's file as #line names it; `student_start`: the
// offset of its first line in the assembled text; `dir`: where the headers
// are (helpers the kernel calls are copied from them); `checked`: a checked
// build (CV_CHECKED), whose loops say which thread runs (cv_fis_here) for an
// out-of-range index's record.
Emitted emit_kernel(const Analysis& a, const std::string& name, const std::string& file_name,
                    size_t student_start, const std::string& dir, bool checked);

}  // namespace cv::emu::fission
