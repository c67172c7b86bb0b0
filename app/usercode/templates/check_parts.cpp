#include "usercode/templates/check_parts.h"

#include <cmath>
#include <cstdio>

#include "usercode/wire/data_generators.h"

namespace cv::usercode::check {

std::string text(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char b[32];
  std::snprintf(b, sizeof b, "%.9g", v);
  return b;
}

std::string text(long long v) { return std::to_string(v); }
std::string text(unsigned long long v) { return std::to_string(v); }

Mismatch exact(const std::string& element, long long expected, long long got) {
  return {element, text(expected), text(got), ""};
}

std::vector<char> generated(const SpanSpec& s, const Workload& w, const std::string& span) {
  return generate_data(generator_of(w, span, s), s.size(w), w.seed);
}

std::vector<int32_t> generated_ints(const SpanSpec& s, const Workload& w, const std::string& span) {
  const std::vector<char> bytes = generated(s, w, span);
  std::vector<int32_t> v(bytes.size() / sizeof(int32_t));
  if (!v.empty()) std::memcpy(v.data(), bytes.data(), v.size() * sizeof(int32_t));
  return v;
}

}  // namespace cv::usercode::check
