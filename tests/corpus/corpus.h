#pragma once
// The corpus of student kernels (tests/corpus/<template>/<name>.cu): each file
// names its template on its first line and what the verdict must say on its
// second:
//   // expect: correct
//   // expect: wrong <case>[ | <case>...]
// where each <case> is a case of the template's test set, word for word
// (usercode/client/verdict.h); a wrong kernel must fail at least one of them.
// A racy kernel says so on a line of its own: `// races: lost updates ...`
// (threads read-modify-write one place) or `// races: no barrier ...` (a read
// before another thread's write is ordered). No manifest: every .cu under the
// corpus folder is a test (app_tests on the CPU backend, gpu_tests on the
// device).
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "usercode/templates/template_registry.h"
#include "usercode/client/race_check.h"
#include "usercode/client/verdict.h"

namespace cv::corpus {

struct Kernel {
  std::string path, name;  // name: "<template dir>_<file stem>" (a test's name)
  std::string source, template_name;
  bool correct = false;
  std::vector<std::string> failing;  // wrong: the cases one of which must fail
  std::string header_error;          // a malformed header, in words
  bool racy = false;                 // a `// races:` line
  bool lost_updates = false;         // `// races: lost updates`: only a race-exposing schedule shows it on the CPU
};

// The corpus folder: CUDAVIZ_CORPUS_DIR (the device run's copy of the tree),
// else this source tree's tests/corpus.
inline std::string root() {
  const char* dir = std::getenv("CUDAVIZ_CORPUS_DIR");
  return dir && *dir ? std::string(dir) : std::string(CUDAVIZ_SOURCE_DIR "/tests/corpus");
}

// How gtest shows a parameter (the file, not its bytes).
inline void PrintTo(const Kernel& k, std::ostream* os) { *os << k.path; }

inline std::string trim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.pop_back();
  while (!s.empty() && s.front() == ' ') s.erase(s.begin());
  return s;
}

inline Kernel read_kernel(const std::filesystem::path& p) {
  Kernel k;
  k.path = p.string();
  k.name = p.parent_path().filename().string() + "_" + p.stem().string();
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  k.source = s.str();
  std::istringstream lines(k.source);
  std::string first, second;
  std::getline(lines, first);
  std::getline(lines, second);
  k.template_name = usercode::template_from_source(first).value_or("");
  const std::string tag = "// expect:";
  if (k.template_name.empty() || second.rfind(tag, 0) != 0) {
    k.header_error = "the first two lines must be `// template: NAME` and `// expect: ...`";
    return k;
  }
  const std::string expect = trim(second.substr(tag.size()));
  k.correct = expect == "correct";
  if (!k.correct && expect.rfind("wrong ", 0) != 0) {
    k.header_error = "expect '" + expect + "': neither `correct` nor `wrong <case>`";
    return k;
  }
  for (std::string l; std::getline(lines, l);) {
    if (l.rfind("// races: ", 0) != 0) continue;
    k.racy = true;
    k.lost_updates = l.rfind("// races: lost updates", 0) == 0;
  }
  if (!k.correct) {
    std::istringstream alts(expect.substr(6));
    for (std::string a; std::getline(alts, a, '|');) k.failing.push_back(trim(a));
  }
  return k;
}

// Every corpus kernel under `root`, in a stable order.
inline std::vector<Kernel> all_kernels(const std::string& root) {
  std::vector<Kernel> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root, ec))
    if (e.is_regular_file() && e.path().extension() == ".cu") out.push_back(read_kernel(e.path()));
  std::sort(out.begin(), out.end(), [](const Kernel& a, const Kernel& b) { return a.name < b.name; });
  return out;
}

// "" when the verdict is what the kernel's header expects, else why not.
inline std::string disagreement(const Kernel& k, const usercode::TemplateSpec& t, const usercode::Verdict& v) {
  if (!k.header_error.empty()) return k.header_error;
  if (k.correct) return v.correct ? "" : "expected correct, judged " + v.summary();
  const std::vector<usercode::VerdictCase> cases = usercode::verdict_cases(t);
  for (const std::string& want : k.failing)
    if (std::none_of(cases.begin(), cases.end(), [&](const usercode::VerdictCase& c) { return c.name == want; }))
      return "'" + want + "' is not a case of the " + t.name + " template";
  if (v.correct) return "expected wrong (" + k.failing.front() + "), judged correct";
  const usercode::CaseOutcome* first = v.failed();
  if (!first) return "judged wrong but no case is named: " + v.summary();
  if (first->status == usercode::CaseOutcome::Status::Failed &&
      (!first->mismatch || first->mismatch->element.empty() || first->mismatch->got.empty() ||
       first->mismatch->expected.empty()))
    return "the failing case names no element, expected or got: " + v.summary();
  if (first->status == usercode::CaseOutcome::Status::Fault && !first->fault && first->error.empty())
    return "the failing case's fault is not named: " + v.summary();
  // A race shows in whichever case the schedule interleaves its threads: for a
  // racy kernel, wrong with a case named (above) is what is asked.
  if (k.racy) return "";
  for (const usercode::CaseOutcome& c : v.cases) {
    const bool failed = c.status == usercode::CaseOutcome::Status::Failed ||
                        c.status == usercode::CaseOutcome::Status::Fault;
    // A case failed by the race check (a GPU verdict) counts as that case.
    const std::string race = std::string(usercode::kRaceCase) + ": ";
    const std::string name = c.name.rfind(race, 0) == 0 ? c.name.substr(race.size()) : c.name;
    if (failed && std::find(k.failing.begin(), k.failing.end(), name) != k.failing.end()) return "";
  }
  return "none of the expected cases failed; judged " + v.summary();
}

}  // namespace cv::corpus
