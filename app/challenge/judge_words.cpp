#include "challenge/judge_words.h"

#include <cmath>
#include <cstdio>

namespace cv::challenge {

namespace {

std::string number(const nlohmann::ordered_json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
  if (!v.is_number()) return "?";
  const double d = v.get<double>();
  char buf[48];
  if (v.is_number_integer() || (std::fabs(d) < 1e15 && d == std::floor(d)))
    std::snprintf(buf, sizeof buf, "%.0f", d);
  else
    std::snprintf(buf, sizeof buf, "%.6g", d);
  return buf;
}

const char* access_word(int kind) {
  return kind == cv_emu::kWrite ? "writes" : kind == cv_emu::kAtomic ? "updates atomically" : "reads";
}

}  // namespace

std::string wrong_words(const usercode::TemplateSpec& t, const nlohmann::ordered_json& fields) {
  // A check that describes its first failing case says it best.
  for (const char* k : {"first_failure", "failure", "failed_case", "mismatch"})
    if (fields.contains(k) && fields[k].is_string() && !fields[k].get<std::string>().empty())
      return "wrong: " + fields[k].get<std::string>();
  std::string s = "wrong";
  if (fields.contains("result") && fields.contains("reference"))
    s += ": your kernel gave " + number(fields["result"]) + " where the reference gives " +
         number(fields["reference"]);
  if (fields.contains("worst_relative_error"))
    s += " (worst relative error " + number(fields["worst_relative_error"]) + ")";
  if (!t.reference_text.empty()) s += "; checked against " + t.reference_text;
  return s;
}

std::vector<std::string> explain_words(const emu::Explain& x, long long n) {
  std::vector<std::string> out;
  char buf[512];
  if (x.racy_elements > 0) {
    std::snprintf(buf, sizeof buf, "a race: %llu element%s written by more than one thread without an atomic",
                  x.racy_elements, x.racy_elements == 1 ? " is" : "s are");
    out.push_back(buf);
    if (!x.races.empty() && !x.races.front().sentence.empty()) out.push_back("for example, " + x.races.front().sentence);
  }
  for (const emu::SectorLine& s : x.sectors) {
    // 32-byte sectors a warp needs at best for its 32 lanes' bytes.
    const double ideal = std::max(1.0, std::ceil(32.0 * s.bytes / 32.0));
    if (s.requests == 0 || s.sectors_per_request <= ideal * 1.5) continue;
    std::snprintf(buf, sizeof buf,
                  "line %d %s %s with %.1f sectors per warp request (at best %.0f): %.0f%% of the bytes "
                  "fetched are used",
                  s.line, access_word(s.kind), s.buffer.c_str(), s.sectors_per_request, ideal, 100 * s.efficiency);
    out.push_back(buf);
  }
  for (const emu::Branch& b : x.branches) {
    if (b.divergent_warps == 0) continue;
    std::snprintf(buf, sizeof buf, "line %d: the branch splits %llu of %llu warp passes (both sides run, one after the other)",
                  b.line, b.divergent_warps, b.warps);
    out.push_back(buf);
  }
  if (out.empty()) {
    std::snprintf(buf, sizeof buf,
                  "no race, every warp access uses its sectors well, no branch splits a warp (explain ran %lld "
                  "elements on the emulator)",
                  n);
    out.push_back(buf);
  }
  if (x.truncated) out.push_back("explain stopped recording early: a long kernel is only partly checked");
  return out;
}

std::string words_for_student(const std::string& compiler_words) {
  const std::string mark = "(in the app's ";
  const size_t at = compiler_words.rfind(mark);
  if (at == std::string::npos) return compiler_words;
  // Where (the file's name without its folders, the line), never what.
  std::string where = compiler_words.substr(at + mark.size());
  if (!where.empty() && where.back() == ')') where.pop_back();
  if (where.size() > 80 || where.find_first_of("\n/") != std::string::npos) where = "another file";
  return "an error in " + where + ", outside your kernel (the compiler's words about other files are not shown)";
}

}  // namespace cv::challenge
