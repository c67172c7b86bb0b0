#pragma once
// A fault in the student's kernel, explained: what the error name means in a
// student's words and what to look for (pure, tested).
#include <nlohmann/json.hpp>
#include <string>

#include "usercode/client/user_kernel.h"

namespace cv::usercode {

// The explanation for an error name from the runner: a CUDA error
// ("cudaErrorIllegalAddress", "CUDA_ERROR_ILLEGAL_ADDRESS"), a signal that
// ended a CPU build ("SIGSEGV"), "time-out" (with the limit) or "out of range".
std::string explain_error(const std::string& error_name, double time_limit_s);

// Where a signal in the CPU runner struck, from its last reply (runner_signals.h):
// " It happened at line 7 in thread (3,0,0) of block (1,0,0), touching index
// 1048576 of out (1000 elements)." ("" when the reply says nothing of it).
std::string signal_where(const nlohmann::json& reply, int line);

}  // namespace cv::usercode
