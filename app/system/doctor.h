#pragma once
// `cudaviz doctor`: what the machine offers (driver, GPUs and the code this
// binary holds for them, OpenGL, display server, interop) and, for each
// problem, what to do. Exit 0 when the app can run in some mode (the CPU
// backend counts), 1 when it cannot.
#include <ostream>
#include <string>
#include <vector>

#include "config/config.h"
#include "system/system_findings.h"

namespace cv::sys {

// The printed report (pure: tested with fake facts).
std::string format_report(const Facts& f, const std::vector<Finding>& found);

// Probes everything (a hidden GLFW window when a display exists) and prints;
// the environment is the configuration main() read (config/config.h).
int run_doctor(const Config& config, std::ostream& out);

}  // namespace cv::sys
