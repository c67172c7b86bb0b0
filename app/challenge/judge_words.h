#pragma once
// What a judge found, in the words a student reads: never a field name or an
// internal key. Pure, for tests.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "usercode/emu/explain_types.h"
#include "usercode/templates/template_spec.h"

namespace cv::challenge {

// Why the check failed: the first failing case's own sentence where the
// check gives one (a string field), else the kernel's answer beside the
// reference's, and what the template is checked against.
std::string wrong_words(const usercode::TemplateSpec& t, const nlohmann::ordered_json& fields);

// explain's findings: races (with the first one's sentence), each line whose
// warp-wide accesses fetch more sectors than they need, each branch that
// splits warps; "no race, ..." when clean. `n`: the size explain ran.
std::vector<std::string> explain_words(const emu::Explain& x, long long n);

}  // namespace cv::challenge
