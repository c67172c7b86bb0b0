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

// A compiler's words about a file other than the student's ("... (in the
// app's FILE, line N)") may quote that file: a kernel that reached a file of
// the teacher's machine would read it back. Such words become a sentence
// naming only where; any other text comes back as it is.
std::string words_for_student(const std::string& compiler_words);

}  // namespace cv::challenge
