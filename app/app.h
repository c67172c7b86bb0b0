#pragma once
// The windowed app: one GLFW window, the scene, the panels, the frame loop.
#include "cli.h"

namespace cv {

// Runs until the window closes (or --frames N are drawn). Returns the exit code.
int run_app(const RunOptions& opt);

}  // namespace cv
