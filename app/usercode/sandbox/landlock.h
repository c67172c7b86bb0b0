#pragma once
// Landlock (Linux 5.13+): an unprivileged process gives up file system
// access for itself and its future threads. A cell keeps reading one file
// (its module, for the dynamic loader) and nothing else; on kernels of
// Landlock ABI 4+ it also loses TCP bind/connect, on ABI 6+ abstract Unix
// sockets and signals outside its domain.
#include <string>

namespace cv::sandbox {

// "" when the restriction is in force, else why not (Landlock missing or
// disabled: the caller reports it). `readable` may be "" (nothing readable).
std::string restrict_files_to(const std::string& readable);
// The same, and `writable_dir` (files beneath it may be created and written).
std::string restrict_files_to(const std::string& readable, const std::string& writable_dir);

}  // namespace cv::sandbox
