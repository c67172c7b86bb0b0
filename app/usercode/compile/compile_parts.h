#pragma once
// Inside compile(): the two back ends and the text they share.
#include <string>
#include <utility>
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
std::string epilogue_name(const TemplateSpec& t, BuildKind build);  // "" when none

// The program the compiler sees: prelude includes, `#line 1 "FILE"`, the
// student's source unchanged, then the epilogue include.
std::string assemble(const std::string& source, const std::string& file, const TemplateSpec& t,
                     BuildKind build);
// The extern "C" names the runner looks up for `t` on `target`.
std::vector<std::string> entry_points(const TemplateSpec& t, BuildKind build);

// Where `src` defines `name` (the first `name (` outside comments and
// strings): 1-based line and column, {0, 0} when it does not.
std::pair<int, int> find_definition(const std::string& src, const std::string& name);
// When r's errors say the student's entry point (or per-item function) does
// not match the template's declaration, one error at the student's function
// with the declaration it must have; the compiler's words become notes.
void explain_signature(const std::string& source, const TemplateSpec& t, CompileResult& r);

// Fill r (diagnostics, log, PTX/cubin or the .so, resources) from the assembled program.
void compile_gpu(const CompileRequest& req, CompileResult& r);
void compile_host(const CompileRequest& req, CompileResult& r);

}  // namespace cv::usercode::detail
