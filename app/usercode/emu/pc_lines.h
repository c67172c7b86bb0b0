#pragma once
// Code addresses in a loaded kernel module -> the student's line, through
// binutils' addr2line (it comes with the compiler) over the module's debug
// lines; inlined prelude code is attributed to the student's line it was
// inlined into. Missing addr2line: every line is 0 (explain says so).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace cv::emu {

std::map<uint64_t, int> resolve_lines(const std::string& so_path, uintptr_t load_base,
                                      const std::vector<uint64_t>& pcs, const std::string& student_file);

// Parses addr2line -a -i output (exposed for tests): address -> first frame in `student_file`.
std::map<uint64_t, int> parse_addr2line(const std::string& out, const std::string& student_file);

}  // namespace cv::emu
