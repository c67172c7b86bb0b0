#pragma once
// Helpers for the emulator's tests that go through the app's template
// registry and the runner process (compiled into app_tests): every shipped
// whole kernel and the corpus (tests/corpus/**.cu, `// template: NAME` on the
// first line), built for the CPU and launched at explain's small size.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "test_config.h"
#include "usercode/compile/compile.h"
#include "usercode/client/explain_launch.h"
#include "usercode/client/runner_client.h"
#include "usercode/templates/template_registry.h"

namespace cv::emu::app_test {

struct Case {
  std::string name, path, source;
  const usercode::TemplateSpec* spec = nullptr;
};

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every whole kernel (CpuForm::Emulated) the project ships, then the corpus's.
inline std::vector<Case> whole_kernels() {
  std::vector<Case> out;
  const std::string src = CUDAVIZ_SOURCE_DIR;
  for (const usercode::TemplateEntry& e : usercode::template_entries())
    if (e.spec->cpu_form == usercode::CpuForm::Emulated)
      out.push_back({e.name, src + "/assets/kernels/" + e.file, read_text(src + "/assets/kernels/" + e.file), e.spec});
  const std::filesystem::path corpus = src + "/tests/corpus";
  if (std::filesystem::exists(corpus))
    for (const auto& f : std::filesystem::recursive_directory_iterator(corpus)) {
      if (f.path().extension() != ".cu") continue;
      Case c{f.path().filename().string(), f.path().string(), read_text(f.path().string()), nullptr};
      if (auto t = usercode::template_from_source(c.source)) c.spec = usercode::find_template(*t);
      if (c.spec && c.spec->cpu_form == usercode::CpuForm::Emulated) out.push_back(std::move(c));
    }
  return out;
}

// A kernel that races on purpose (count3_racy; a corpus file with a `// races:`
// line, or whose `// expect:` line says race).
inline bool racy(const Case& c) {
  if (c.name == "count3_racy" || c.source.find("\n// races:") != std::string::npos) return true;
  const size_t at = c.source.find("// expect:");
  if (at == std::string::npos) return false;
  const std::string line = c.source.substr(at, c.source.find('\n', at) - at);
  return line.find("race") != std::string::npos || line.find("racy") != std::string::npos;
}

// `guard`: checked spans, as the window and bench build by default.
inline usercode::CompileResult compile_cpu(const Case& c, bool guard = false) {
  usercode::CompileRequest req;
  req.source = c.source;
  req.template_name = c.spec->name;
  req.build = usercode::BuildKind::Cpu;
  req.guard = guard;
  req.file_name = std::filesystem::path(c.path).filename().string();
  req.paths = test_config().paths;
  return usercode::compile(req);
}

// The template's launch at explain's size from a reset, every writable span read back.
inline usercode::LaunchRequest small_launch(const Case& c, usercode::Schedule s, int reps = 1) {
  const long long n = usercode::explain_n(*c.spec, c.spec->default_block);
  usercode::Workload w = usercode::first_launch(*c.spec, n, c.spec->default_block);
  w.reps = reps;
  usercode::LaunchRequest r = usercode::make_launch(*c.spec, w, "editor");
  for (usercode::LaunchArg& a : r.args)
    if (a.is_span && a.span.writable && a.span.from != usercode::SpanArg::From::Shared) a.span.read_back = true;
  r.schedule = s;
  return r;
}

}  // namespace cv::emu::app_test
