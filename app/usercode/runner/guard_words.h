#pragma once
// A guard record in a student's words (pure, tested without a GPU): which
// access, to which buffer and how far outside it, by which thread and block,
// at which line. The same style as checked mode's out-of-range lines
// (usercode/client/fault_words.cpp).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "usercode/guard/guard_abi.h"
#include "usercode/guard/ptx_guard.h"
#include "usercode/wire/launch_abi.h"

namespace cv::usercode::guard {

// "write of 4 bytes to out at 16 GiB past its end (index 4294967296 of
// 1048576) by thread (3,0,0) of block (7,0,0) at line 12"
std::string describe(const Record& r, const std::vector<GuardSite>& sites,
                     const std::vector<BufferView>& buffers);

// The whole message the runner replies with (error name "guard").
std::string sentence(const Record& r, const std::vector<GuardSite>& sites,
                     const std::vector<BufferView>& buffers);

// The record's facts for the reply ("guard": {line, access, width, space, address, ...}).
nlohmann::json record_json(const Record& r, const std::vector<GuardSite>& sites);

// "16 GiB", "12 bytes", "1.5 KiB"
std::string byte_words(unsigned long long bytes);

}  // namespace cv::usercode::guard
