#include "bench/comparison.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace cv::bench {

Spread spread_of(std::vector<double> ms) {
  Spread s;
  if (ms.empty()) return s;
  std::sort(ms.begin(), ms.end());
  const size_t n = ms.size();
  s.reps = static_cast<int>(n);
  s.min_ms = ms.front();
  s.max_ms = ms.back();
  s.median_ms = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
  return s;
}

std::string spread_words(const Spread& s, const char* unit) {
  char b[160];
  std::snprintf(b, sizeof b, "%.4g ms (min %.4g, max %.4g, %d %s)", s.median_ms, s.min_ms, s.max_ms, s.reps, unit);
  return b;
}

nlohmann::ordered_json to_json(const Spread& s) {
  return {{"min", s.min_ms}, {"median", s.median_ms}, {"max", s.max_ms}, {"reps", s.reps}};
}

std::string speed_words(double yours_ms, double builtin_ms, const std::string& builtin_variant) {
  if (!(yours_ms > 0) || !(builtin_ms > 0))
    throw std::invalid_argument("speed_words: times must be above 0 ms (yours " + std::to_string(yours_ms) +
                                ", built-in " + std::to_string(builtin_ms) + ")");
  const std::string who = "the built-in " + builtin_variant;
  const double ratio = yours_ms / builtin_ms;
  char b[32];
  if (ratio >= 1) {
    std::snprintf(b, sizeof b, "%.2f", ratio);
    return std::string(b) == "1.00" ? "as fast as " + who : std::string(b) + "x slower than " + who;
  }
  std::snprintf(b, sizeof b, "%.2f", 1 / ratio);
  return std::string(b) == "1.00" ? "as fast as " + who : std::string(b) + "x faster than " + who;
}

std::optional<double> guard_percent(double guarded_ms, double unguarded_ms) {
  if (!(guarded_ms > 0) || !(unguarded_ms > 0)) return std::nullopt;
  return (guarded_ms / unguarded_ms - 1) * 100;
}

std::string guard_words(double percent) {
  char b[48];
  std::snprintf(b, sizeof b, "guard: %+.0f%%", percent);
  return std::string(b) == "guard: -0%" ? "guard: +0%" : b;
}

std::vector<std::string> Comparison::lines() const {
  std::vector<std::string> v;
  if (same_words) v.push_back("yours is " + *same_words + " (same algorithm)");
  if (!match.variant) v.push_back(match.why);
  if (fastest_words) v.push_back("yours is " + *fastest_words + " (fastest built-in)");
  if (guard) v.push_back(*guard);
  return v;
}

Comparison compare(const std::string& target, const KernelTraits& yours, double yours_ms,
                   const std::vector<BuiltinTime>& builtins, double guard_ratio) {
  Comparison c;
  std::vector<std::string> measured;
  const BuiltinTime* fastest = nullptr;
  for (const BuiltinTime& b : builtins) {
    if (!(b.median_ms > 0)) continue;  // not timed (refused this size or block)
    measured.push_back(b.variant);
    if (!fastest || b.median_ms < fastest->median_ms) fastest = &b;
  }
  c.match = match_builtin(target, yours, measured);
  if (yours_ms > 0) {
    for (const BuiltinTime& b : builtins)
      if (c.match.variant && b.variant == *c.match.variant) c.same_words = speed_words(yours_ms, b.median_ms, b.variant);
    if (fastest && (!c.match.variant || *c.match.variant != fastest->variant)) {
      c.fastest_variant = fastest->variant;
      c.fastest_words = speed_words(yours_ms, fastest->median_ms, fastest->variant);
    } else if (fastest) {
      c.fastest_variant = fastest->variant;  // the same algorithm is also the fastest: one line says it
    }
  }
  if (auto p = guard_percent(guard_ratio, 1.0)) c.guard = guard_words(*p);
  return c;
}

nlohmann::ordered_json to_json(const Comparison& c, const KernelTraits& yours) {
  nlohmann::ordered_json j;
  j["traits"] = trait_names(yours.set);
  j["same_algorithm"] = c.match.variant ? nlohmann::ordered_json(*c.match.variant) : nullptr;
  j["same_algorithm_why"] = c.match.why;
  if (!c.match.tied.empty()) j["tied"] = c.match.tied;
  if (c.same_words) j["vs_same"] = *c.same_words;
  j["fastest"] = c.fastest_variant.empty() ? nullptr : nlohmann::ordered_json(c.fastest_variant);
  if (c.fastest_words) j["vs_fastest"] = *c.fastest_words;
  if (c.guard) j["guard_share"] = *c.guard;
  j["lines"] = c.lines();
  return j;
}

std::string spread_cell(const nlohmann::ordered_json& row) {
  const auto num = [&](const char* k) { return row.contains(k) && row[k].is_number() ? row[k].get<double>() : -1.0; };
  const double lo = num("ms_min"), mid = num("ms_median"), hi = num("ms_max");
  char b[96];
  if (mid < 0) return "-";
  if (lo < 0)
    std::snprintf(b, sizeof b, "%.4g", mid);
  else if (hi < lo)  // a built-in's row: bench keeps its min and median
    std::snprintf(b, sizeof b, "%.4g [min %.4g]", mid, lo);
  else
    std::snprintf(b, sizeof b, "%.4g [%.4g-%.4g]", mid, lo, hi);
  return b;
}

std::string compare_cell(const nlohmann::ordered_json& row) {
  if (!row.contains("compare") || !row["compare"].contains("lines")) return "";
  std::string s;
  for (const auto& l : row["compare"]["lines"])
    if (l.is_string()) s += (s.empty() ? "" : "; ") + l.get<std::string>();
  return s;
}

}  // namespace cv::bench
