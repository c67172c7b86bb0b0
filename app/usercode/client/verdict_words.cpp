// The verdict in words: one line for the kernel tab and the labs' row, and
// bench kernel's fields.
#include <cstdio>

#include "usercode/client/verdict.h"

namespace cv::usercode {
namespace {

std::string mismatch_words(const Mismatch& m) {
  std::string s = m.element + " is " + m.got + ", expected " + m.expected;
  if (!m.tolerance.empty()) s += " (within " + m.tolerance + ")";
  return s;
}

std::string fault_words(const CaseOutcome& c) {
  if (!c.fault) return c.error.empty() ? std::string("it did not run") : c.error;
  const KernelFault& f = *c.fault;
  std::string s = f.error_name;
  if (f.out_of_range) {
    const OutOfRange& o = *f.out_of_range;
    return s + ": index " + std::to_string(o.index) + " of a buffer of " + std::to_string(o.size) +
           (o.line ? " at line " + std::to_string(o.line) : std::string()) + ", thread (" +
           std::to_string(o.thread[0]) + "," + std::to_string(o.thread[1]) + "," + std::to_string(o.thread[2]) +
           ") of block (" + std::to_string(o.block[0]) + "," + std::to_string(o.block[1]) + "," +
           std::to_string(o.block[2]) + ")";
  }
  // The explanation's first sentence says what happened; the rest is advice the fault shows in full.
  const std::string first = f.explanation.substr(0, f.explanation.find(". "));
  if (!first.empty()) s += ": " + first;
  if (f.line && first.find("line") == std::string::npos) s += " (line " + std::to_string(f.line) + ")";
  return s;
}

}  // namespace

const CaseOutcome* Verdict::failed() const {
  for (const CaseOutcome& c : cases)
    if (c.status == CaseOutcome::Status::Failed || c.status == CaseOutcome::Status::Fault) return &c;
  return nullptr;
}

std::string Verdict::summary() const {
  if (!judged) return "not checked (the template has no reference)";
  const std::string seed_words = " (seed " + std::to_string(seed) + ")";
  if (const CaseOutcome* c = failed()) {
    if (c->status == CaseOutcome::Status::Fault)
      return "wrong: it failed for " + c->name + ": " + fault_words(*c) + seed_words;
    return "wrong for " + c->name + ": " + mismatch_words(*c->mismatch) + seed_words;
  }
  if (cancelled) return "not judged: cancelled";
  return "correct on all " + std::to_string(cases.size()) + (cases.size() == 1 ? " case" : " cases") +
         seed_words;
}

void Verdict::add_fields(nlohmann::ordered_json& line) const {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const CaseOutcome& c : cases)
    list.push_back({{"case", c.name}, {"n", c.n}, {"status", to_string(c.status)}, {"ms", c.ms}});
  line["cases"] = list;
  line["seed"] = seed;
  const CaseOutcome* f = failed();
  line["failed_case"] = f ? nlohmann::ordered_json(f->name) : nlohmann::ordered_json();
  if (!f) return;
  if (f->mismatch) {
    line["failed_element"] = f->mismatch->element;
    line["expected"] = f->mismatch->expected;
    line["got"] = f->mismatch->got;
    if (!f->mismatch->tolerance.empty()) line["tolerance"] = f->mismatch->tolerance;
  } else {
    line["failed_error"] = fault_words(*f);
  }
  line["verdict"] = summary();
}

}  // namespace cv::usercode
