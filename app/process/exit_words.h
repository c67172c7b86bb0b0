#pragma once
// How a child ended, in words: the one place a signal or a wait status
// becomes text. Each caller keeps the form its readers know.
#include <string>

namespace cv {

// "SIGSEGV", "SIGBUS", "SIGABRT", "SIGFPE", "SIGILL", "SIGTRAP", "SIGKILL"
// (the names the runner's faults are explained by), else "signal 15".
std::string signal_name(int sig);
// The C library's description: "Segmentation fault", "Killed".
std::string signal_description(int sig);
// A waitpid status short: "SIGSEGV" (signal_name), "exit 1", "ended".
std::string ended_words(int status);
// A waitpid status in full: "exit status 1", "killed by signal 9 (Killed)".
std::string describe_wait_status(int status);

}  // namespace cv
