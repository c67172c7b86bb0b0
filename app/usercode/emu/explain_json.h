#pragma once
// Explain as JSON (the bench line's fields, the kernel tab's views read it
// back): races, sectors_per_request, divergent_branches, branches, touches,
// warp, recorded_threads, events, truncated, scope.
#include <nlohmann/json.hpp>

#include "usercode/emu/explain_types.h"

namespace cv::emu {

const char* kind_name(int kind);  // "read" / "write" / "atomic"
nlohmann::ordered_json to_json(const Explain& x);
// Throws nlohmann::json::exception on a malformed document.
Explain explain_from_json(const nlohmann::json& j);

}  // namespace cv::emu
