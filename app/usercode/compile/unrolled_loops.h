#pragma once
// The loops NVVM unrolled around the student's memory accesses, read from
// NVRTC's PTX for explain (emu::UnrolledLoop: which lanes meet in one request
// on the GPU). A counted loop unrolled U times becomes a body with U copies of
// each access of a pass and a remainder loop with one copy, placed before the
// body or after it (nvcc picks; the source does not say). A line is reported
// only when its accesses are all in two such loops, neither inside another
// loop (so a thread's passes at the line are one run of the loop): anything
// else keeps the source's pairing.
#include <string>
#include <vector>

#include "usercode/emu/explain_types.h"

namespace cv::usercode {

// `file_name`: the student's file as NVRTC was given it (its .file entry is
// matched by its last path component).
std::vector<emu::UnrolledLoop> unrolled_loops(const std::string& ptx, const std::string& file_name);

}  // namespace cv::usercode
