#pragma once
// The student's lines in NVRTC's PTX: which `.file` ids are the student's
// file, and, through every `.loc`, the student's line the code at hand comes
// from. A .loc of inlined code names only its own call site (`inlined_at`):
// the call site's function is the one whose .loc was last at that place, whose
// own call site is known the same way, up to the student's file. So code of
// the prelude inlined through several helpers (s[i] -> operator[] ->
// access(), where the checked build's line marker is) is placed at the
// student's line that called it.
// The guard names its stops by it; explain reads unrolled loops by it.
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "usercode/guard/ptx_text.h"

namespace cv::usercode::guard {

// The ids of `.file` entries whose last path component is `student_file`'s.
std::set<int> student_file_ids(const std::vector<Piece>& pieces, const std::string& student_file);

class StudentLines {
 public:
  explicit StudentLines(std::set<int> files) : files_(std::move(files)) {}
  // Any directive; a .loc moves the line (code outside the student's keeps the last one).
  void see(const std::string& directive);
  int line() const { return line_; }

 private:
  using Loc = std::pair<int, int>;         // (file, line)
  std::set<int> files_;
  int line_ = 0;
  std::map<std::string, Loc> call_site_;   // inlined function label -> its latest call site
  std::map<Loc, std::string> last_fn_at_;  // place -> the function whose .loc was last there ("" outside any)
};

}  // namespace cv::usercode::guard
