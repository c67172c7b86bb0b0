#pragma once
// A reply from a cell (a process running a student's host code) is written
// by whoever controls that process: the runner forwards it to the app only
// when every key is one the CPU executor sends, with its type and within its
// bounds, so no value can throw in the app's parsing or point outside the blob.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

namespace cv::usercode::runner {

// "" when `reply` is a well-formed executor reply for a blob of `blob_bytes`,
// else what is wrong with it ("key 'kernel_ms' is not a list of numbers").
std::string check_reply(const nlohmann::json& reply, size_t blob_bytes);

}  // namespace cv::usercode::runner
