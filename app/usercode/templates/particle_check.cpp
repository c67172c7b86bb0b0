#include "usercode/templates/particle_check.h"

#include <cmath>

#include "usercode/templates/check_parts.h"

namespace cv::usercode {

void compare(const Expected& e, const std::vector<float>& got, Compared& c) {
  const size_t comps = e.components.empty() ? 1 : e.components.size();
  const size_t n = e.value.size() / comps;
  if (got.size() != e.value.size()) {
    c.checked += static_cast<long long>(n);
    if (!c.first)
      c.first = Mismatch{e.name, std::to_string(n) + " values", std::to_string(got.size() / comps) + " values", ""};
    return;
  }
  for (size_t i = 0; i < n; ++i) {
    if (!e.skip.empty() && e.skip[i]) {
      ++c.skipped;
      continue;
    }
    ++c.checked;
    bool same = true;
    for (size_t k = 0; k < comps; ++k) {
      const size_t at = i * comps + k;
      const double diff = std::fabs(static_cast<double>(got[at]) - e.value[at]);
      if (diff <= e.tol[at]) continue;  // false for NaN: a NaN never passes
      same = false;
      if (c.first) break;
      std::string element = e.name + "[" + std::to_string(i) + "]";
      if (!e.components.empty() && !e.components[k].empty()) element += "." + e.components[k];
      if (e.kind_words && !e.kind.empty()) element += " (" + (*e.kind_words)[e.kind[i]] + ")";
      c.first = Mismatch{element, check::text(e.value[at]), check::text(got[at]),
                         e.tol[at] > 0 ? check::text(e.tol[at]) : ""};
      break;
    }
    c.matching += same;
  }
}

CheckResult verdict_of(const Compared& c) {
  CheckResult r;
  r.correct = !c.first && c.matching == c.checked && c.checked > 0;
  r.mismatch = c.first;
  if (!r.correct && !r.mismatch) r.mismatch = Mismatch{"the particles", "some checked", "none", ""};
  r.fields["result"] = c.matching;  // particles within the tolerance of the built-in's
  r.fields["reference"] = c.checked;
  if (c.skipped) r.fields["not_checked"] = c.skipped;  // a branch too close to call in float32
  return r;
}

void particle_scene_rules(TemplateSpec& t) {
  t.swaps = {{"in", "out"}};
  t.default_n = 256 * 256;
  t.max_n = 1ll << 26;
  t.default_block = {16, 16, 1};
  t.rate_name = "particles_per_s";
  t.rate = [](long long n) { return static_cast<double>(n); };
}

}  // namespace cv::usercode
