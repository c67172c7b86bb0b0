#pragma once
// Code addresses in a loaded kernel module -> the student's lines, through
// binutils' addr2line (it comes with the compiler) over the module's debug
// lines. addr2line -i lists the functions inlined at an address, innermost
// first; the frames in the student's file are kept, so code of the app's
// prelude inlined into the student's line counts as that line, and a
// student's helper inlined into a call gives the helper's line, then the
// call's. Missing addr2line: no lines (explain says line 0).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cv::emu {

// Each pc (a return address: the call before it is looked up) -> the
// student's lines there, innermost first (empty: none in the student's file).
std::map<uint64_t, std::vector<int>> resolve_frames(const std::string& so_path, uintptr_t load_base,
                                                    const std::vector<uint64_t>& pcs,
                                                    const std::string& student_file);

// Parses addr2line -a -i output (exposed for tests): address -> the frames'
// lines in `student_file`, innermost first.
std::map<uint64_t, std::vector<int>> parse_addr2line(const std::string& out, const std::string& student_file);

}  // namespace cv::emu
