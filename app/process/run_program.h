#pragma once
// Running a program to its end, with a time limit (the host compiler, the
// linker, addr2line): stdin from a file or /dev/null, its output appended to
// a log file or captured. argv[0] is a path, or a name looked up on PATH.
// Each returns "" or why the program could not run or was stopped; `status`
// is its wait status (waitpid's) only when "" is returned.
#include <string>
#include <vector>

namespace cv {

// stdout and stderr appended to `log_path` (created 0600), stdin /dev/null.
std::string run_to_log(const std::vector<std::string>& argv, const std::string& log_path, double limit_s,
                       int& status);
// stdout into `out`, stdin from `stdin_path` ("" -> /dev/null), stderr /dev/null.
std::string run_capture(const std::vector<std::string>& argv, const std::string& stdin_path, double limit_s,
                        std::string& out, int& status);

}  // namespace cv
