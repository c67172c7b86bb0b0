#pragma once
// What every template's check shares: read-back values by name and numbers
// as the verdict shows them (NaN named as NaN, floats to the last digit that
// tells two of them apart).
#include <cstring>
#include <string>
#include <vector>

#include "usercode/templates/template_spec.h"

namespace cv::usercode::check {

// A read-back span as values of T ({} when missing).
template <class T>
std::vector<T> values(const ReadBack& rb, const std::string& name) {
  auto it = rb.find(name);
  if (it == rb.end()) return {};
  std::vector<T> v(it->second.size() / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), it->second.data(), v.size() * sizeof(T));
  return v;
}

// "NaN", "inf", "-inf", else the shortest form that round-trips a float (%.9g).
std::string text(double v);
std::string text(long long v);
std::string text(unsigned long long v);

// A mismatch of one exact value.
Mismatch exact(const std::string& element, long long expected, long long got);

// The bytes a generated span holds for this workload (its generator, the
// case's override, n from the span's size rule and the workload's seed): what
// the runner made, made again here.
std::vector<char> generated(const SpanSpec& s, const Workload& w, const std::string& span);
std::vector<int32_t> generated_ints(const SpanSpec& s, const Workload& w, const std::string& span);

}  // namespace cv::usercode::check
