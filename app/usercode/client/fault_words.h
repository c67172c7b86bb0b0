#pragma once
// A fault in the student's kernel, explained: what the error name means in a
// student's words and what to look for (pure, tested).
#include <string>

#include "usercode/client/user_kernel.h"

namespace cv::usercode {

// The explanation for an error name from the runner: a CUDA error
// ("cudaErrorIllegalAddress", "CUDA_ERROR_ILLEGAL_ADDRESS"), a signal that
// ended a CPU build ("SIGSEGV"), "time-out" (with the limit) or "out of range".
std::string explain_error(const std::string& error_name, double time_limit_s);

}  // namespace cv::usercode
