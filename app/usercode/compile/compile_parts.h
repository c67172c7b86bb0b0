#pragma once
// Inside compile(): the two back ends and the text they share.
#include <string>
#include <vector>

#include "usercode/compile/compile.h"

namespace cv::usercode::detail {

// In-memory headers by the name the assembled source includes them.
struct Header {
  std::string name, text;
};
// cudaviz.h and the template's declarations, then (after the student's code)
// the wrapper of a per-item function for each target.
std::vector<Header> prelude_headers(const TemplateSpec& t);
std::string epilogue_name(const TemplateSpec& t, Target target);  // "" when none

// The program the compiler sees: prelude includes, `#line 1 "FILE"`, the
// student's source unchanged, then the epilogue include.
std::string assemble(const std::string& source, const std::string& file, const TemplateSpec& t,
                     Target target);
// The extern "C" names the runner looks up for `t` on `target`.
std::vector<std::string> entry_points(const TemplateSpec& t, Target target);

// Fill r (diagnostics, log, PTX/cubin or the .so, resources) from the assembled program.
void compile_gpu(const CompileRequest& req, CompileResult& r);
void compile_host(const CompileRequest& req, CompileResult& r);

}  // namespace cv::usercode::detail
