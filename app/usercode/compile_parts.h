#pragma once
// Inside compile(): the two back ends and the text they share.
#include <string>
#include <vector>

#include "usercode/compile.h"

namespace cv::usercode::detail {

// In-memory headers by the name the assembled source includes them.
struct Header {
  std::string name, text;
};
// cudaviz.h and the kind's declarations, then (after the student's code) the
// wrapper of a per-particle function for `target`.
std::vector<Header> prelude_headers(TemplateKind kind);
std::string epilogue_name(TemplateKind kind, Target target);  // "" when none

// The program the compiler sees: prelude includes, `#line 1 "FILE"`, the
// student's source unchanged, then the epilogue include.
std::string assemble(const std::string& source, const std::string& file, TemplateKind kind,
                     Target target);
// The extern "C" names the runner looks up for `kind` on `target`.
std::vector<std::string> entry_points(TemplateKind kind, Target target);

// Fill r (diagnostics, log, PTX/cubin or the .so, resources) from the assembled program.
void compile_gpu(const CompileRequest& req, CompileResult& r);
void compile_host(const CompileRequest& req, CompileResult& r);

}  // namespace cv::usercode::detail
