#include "lessons/lesson_values.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "bench/bench.h"

namespace cv::lessons {

using nlohmann::json;

const std::vector<std::string>& scene_value_names() {
  static const std::vector<std::string> names{
      "fps",          "frame_ms",           "kernel_ms", "step_ms",     "draw_ms",
      "count",        "particles_per_s",    "gb_per_s",  "gflops",      "interactions_per_s",
      "samples_per_s", "pi_estimate",       "abs_error", "energy_drift"};
  return names;
}

namespace {

std::string join_list(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

void flatten(const std::string& prefix, const json& v, Values& out) {
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it) flatten(prefix + "." + it.key(), it.value(), out);
  } else if (v.is_array()) {
    std::string s;  // a block [16, 16, 1] reads as 16x16x1
    for (const auto& x : v) s += (s.empty() ? "" : "x") + x.dump();
    out[prefix] = s;
  } else {
    out[prefix] = v;
  }
}

}  // namespace

std::optional<std::string> check_value_key(const RunSpec& run, const std::string& key, bool loose) {
  using K = RunSpec::Kind;
  if (const auto slash = key.find(" / "); slash != std::string::npos) {
    if (auto why = check_value_key(run, key.substr(0, slash), loose)) return why;
    return check_value_key(run, key.substr(slash + 3), loose);
  }
  if (run.kind == K::None) return "'" + key + "' needs a run that measures it";
  if (run.kind == K::Frames || run.kind == K::Seconds) {
    const auto& names = scene_value_names();
    if (std::find(names.begin(), names.end(), key) == names.end())
      return "'" + key + "' is not measured by a scene run (" + join_list(names) + ")";
    return std::nullopt;
  }
  const auto dot = key.find('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == key.size())
    return "'" + key + "' is not SELECTOR.FIELD (e.g. " +
           (run.kind == K::Sweep ? std::string("16x16.ms_median") : "atomic.ms_median") + ")";
  const std::string sel = key.substr(0, dot);
  if (run.kind == K::Sweep) {
    std::vector<std::string> shapes;
    for (const auto& s : run.shapes) shapes.push_back(to_string(s));
    if (!loose && std::find(shapes.begin(), shapes.end(), sel) == shapes.end())
      return "'" + sel + "' in '" + key + "' is not a shape of run.shapes (" + join_list(shapes) +
             ")";
    return std::nullopt;
  }
  const auto at = sel.find('@');
  const std::string variant = sel.substr(0, at);
  const bench::Target* t = bench::find_target(run.target);
  if (!t) return "run target '" + run.target + "' is unknown";
  if (std::find(t->variants.begin(), t->variants.end(), variant) == t->variants.end())
    return "'" + variant + "' in '" + key + "' is not a variant of " + run.target + " (" +
           join_list(t->variants) + ")";
  if (!loose && !run.variants.empty() &&
      std::find(run.variants.begin(), run.variants.end(), variant) == run.variants.end())
    return "'" + variant + "' in '" + key + "' is not among run.variant (" +
           join_list(run.variants) + ")";
  if (at != std::string::npos && !loose) {
    const std::string n = sel.substr(at + 1);
    const bool listed = std::any_of(run.ns.begin(), run.ns.end(),
                                    [&](long long x) { return std::to_string(x) == n; });
    if (!listed) return "'@" + n + "' in '" + key + "' is not one of run.n";
  }
  return std::nullopt;
}

void add_bench_rows(const std::vector<nlohmann::ordered_json>& rows, Values& out) {
  for (const auto& r : rows) {
    const std::string v = r.value("variant", "");
    if (v.empty()) continue;
    const std::string at = r.contains("n") ? v + "@" + r["n"].dump() : v;
    for (auto it = r.begin(); it != r.end(); ++it) {
      if (it.key() == "bench" || it.key() == "variant") continue;
      flatten(v + "." + it.key(), it.value(), out);  // the last row of a variant wins
      flatten(at + "." + it.key(), it.value(), out);
    }
  }
}

void add_sweep_row(const std::string& shape, const nlohmann::ordered_json& row, Values& out) {
  for (auto it = row.begin(); it != row.end(); ++it)
    if (it.key() != "bench") flatten(shape + "." + it.key(), it.value(), out);
}

namespace {

std::string field_of(const std::string& key) {
  const auto dot = key.rfind('.');
  return dot == std::string::npos ? key : key.substr(dot + 1);
}

bool ends_with(const std::string& s, const std::string& e) {
  return s.size() >= e.size() && s.compare(s.size() - e.size(), e.size(), e) == 0;
}

std::string number(double v) {
  char buf[64];
  const double a = std::fabs(v);
  if (a != 0 && (a >= 1e5 || a < 1e-3)) {
    // 1.23e+09 reads badly on a projector: SI prefixes instead.
    const char* prefixes[] = {"", " k", " M", " G", " T", " P"};
    int k = 0;
    double x = v;
    while (std::fabs(x) >= 1000 && k < 5) x /= 1000, ++k;
    if (k == 0) {
      std::snprintf(buf, sizeof buf, "%.3g", v);
      return buf;
    }
    std::snprintf(buf, sizeof buf, "%.3g%s", x, prefixes[k]);
    return buf;
  }
  if (a >= 100 || std::floor(v) == v) std::snprintf(buf, sizeof buf, "%.0f", v);
  else if (a >= 10) std::snprintf(buf, sizeof buf, "%.1f", v);
  else std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

std::optional<double> as_number(const json& v) {
  if (v.is_number()) return v.get<double>();
  if (v.is_boolean()) return v.get<bool>() ? 1.0 : 0.0;
  return std::nullopt;
}

}  // namespace

std::optional<json> lookup(const Values& v, const std::string& key) {
  if (const auto slash = key.find(" / "); slash != std::string::npos) {
    const auto a = lookup(v, key.substr(0, slash)), b = lookup(v, key.substr(slash + 3));
    if (!a || !b || !a->is_number() || !b->is_number() || b->get<double>() == 0) return std::nullopt;
    return a->get<double>() / b->get<double>();
  }
  auto it = v.find(key);
  if (it == v.end()) return std::nullopt;
  return it->second;
}

std::string format_value(const std::string& key, const json& v) {
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
  if (v.is_null()) return "-";
  if (v.is_string()) return v.get<std::string>();
  if (!v.is_number()) return v.dump();
  const double d = v.get<double>();
  if (key.find(" / ") != std::string::npos) return number(d) + "x";
  const std::string f = field_of(key);
  if (ends_with(f, "_ms") || f == "ms_median" || f == "ms_min") return number(d) + " ms";
  if (f == "gb_per_s") return number(d) + " GB/s";
  if (f == "gflops") return number(d) + " GFLOP/s";
  if (ends_with(f, "_per_s")) return number(d) + "/s";
  if (f == "fps") return number(d) + " fps";
  if (key.find(".vs.") != std::string::npos) return number(d) + "x";
  return number(d);
}

Verdict judge(const Prediction& p, const Values& v, const std::vector<int>& hands,
              std::optional<double> guess) {
  Verdict out;
  auto value = [&](const std::string& key) -> std::optional<double> {
    auto x = lookup(v, key);
    return x ? as_number(*x) : std::nullopt;
  };
  if (p.kind == Prediction::Kind::Choice) {
    const int n = static_cast<int>(p.choices.size());
    if (p.answer == "lowest" || p.answer == "highest" || p.answer == "true") {
      std::vector<double> vals;
      for (const auto& c : p.choices) {
        auto x = value(c.key);
        if (!x) {
          out.summary = "not measured: the run gave no value for this answer";
          out.missing = c.key;
          return out;
        }
        vals.push_back(c.negate ? (*x != 0 ? 0.0 : 1.0) : *x);
      }
      if (p.answer == "true") {
        for (int i = 0; i < n && out.correct_choice < 0; ++i)
          if (vals[i] != 0) out.correct_choice = i;
      } else {
        const auto it = p.answer == "lowest" ? std::min_element(vals.begin(), vals.end())
                                             : std::max_element(vals.begin(), vals.end());
        out.correct_choice = static_cast<int>(it - vals.begin());
      }
      if (out.correct_choice < 0) {
        out.summary = "no choice holds for this measurement";
        return out;
      }
    } else {
      for (int i = 0; i < n; ++i)
        if (p.choices[i].label == p.answer) out.correct_choice = i;
    }
    out.measured = out.correct_choice >= 0;
    int total = 0, on = 0;
    for (int i = 0; i < static_cast<int>(hands.size()); ++i) {
      total += hands[i];
      if (i == out.correct_choice) on = hands[i];
    }
    int most = -1;
    for (int i = 0; i < static_cast<int>(hands.size()); ++i)
      if (hands[i] > 0 && (most < 0 || hands[i] > hands[most])) most = i;
    out.right = most == out.correct_choice;
    char buf[256];
    std::snprintf(buf, sizeof buf, "answer: %s; %d of %d hands chose it",
                  p.choices[out.correct_choice].label.c_str(), on, total);
    out.summary = buf;
    return out;
  }
  if (p.kind == Prediction::Kind::Number) {
    auto x = value(p.answer);
    if (!x) {
      out.summary = "not measured: the run gave no value for this answer";
      out.missing = p.answer;
      return out;
    }
    out.measured = true;
    out.value = *x;
    const double room = p.tolerance_relative ? p.tolerance * std::fabs(*x) : p.tolerance;
    out.right = guess && std::fabs(*guess - *x) <= room;
    char buf[256];
    if (guess)
      std::snprintf(buf, sizeof buf, "measured %s %s, predicted %s: %s", number(*x).c_str(),
                    p.unit.c_str(), number(*guess).c_str(),
                    out.right ? "within the tolerance" : "outside the tolerance");
    else
      std::snprintf(buf, sizeof buf, "measured %s %s (no prediction entered)", number(*x).c_str(),
                    p.unit.c_str());
    out.summary = buf;
  }
  return out;
}

}  // namespace cv::lessons
