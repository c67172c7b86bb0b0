#pragma once
// The host C++ compiler reads whatever file a source names (an #include this
// app's scan missed, __has_include, #pragma GCC dependency): so it runs
// where the only files are the toolchain's (/usr, /lib*, /bin read-only) and
// the build directory (as /build), in new user, mount, network and IPC
// namespaces, with limits on its memory, CPU time and output size. The app
// is multi-threaded and may not set that up between fork and exec, so a
// small single-threaded step does it: `cudaviz-explain --confine DIR --
// COMPILER ARGS...` (confine_and_exec), which becomes the compiler.
#include <string>
#include <vector>

namespace cv::sandbox {

constexpr unsigned long long kCompilerOutputBytes = 64ull << 20;   // any file it writes (RLIMIT_FSIZE)
constexpr unsigned long long kCompilerMemoryBytes = 4ull << 30;    // RLIMIT_AS
constexpr int kCompilerCpuSeconds = 60;                            // RLIMIT_CPU

// In a fresh single-threaded process: confines itself (what it can; `report`
// says what), rewrites `build_dir` in argv to /build and execs argv[0]
// (resolved on PATH first). Returns only when exec failed (the reason).
std::string confine_and_exec(const std::string& build_dir, std::vector<std::string> argv, std::string* report);

// Sets the namespaces and limits up without exec'ing, in a forked child, and
// says what was active ("user+mount+net+ipc namespaces, read-only toolchain,
// limits" or what is missing and why). For tests and the doctor.
std::string probe_confinement();

}  // namespace cv::sandbox
