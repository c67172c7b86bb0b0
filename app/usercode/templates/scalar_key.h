#pragma once
// A scalar argument a scene feeds its template, named and typed once: the
// scene puts it (put(w, fountain_args::params, params_)), the template
// declares it (scalar_arg(key, default)) and reads it (read_or). A misspelt
// name or a value of the wrong type is a compile error on either side, not
// a silent fall back to the default at run time.
#include <cstring>
#include <functional>
#include <utility>

#include "usercode/templates/template_spec.h"

namespace cv::usercode {

template <class T>
struct ScalarKey {
  const char* name;  // the kernel's parameter name, e.g. "p"
  const char* type;  // as the kernel declares it, e.g. "cv::Params"
};

// The feeder's value for `k` (wins over the template's default).
template <class T>
void put(Workload& w, const ScalarKey<T>& k, const T& value) {
  w.scalars[k.name] = bytes_of(value);
}

// What the feeder gave for `k`, else `fallback`.
template <class T>
T read_or(const Workload& w, const ScalarKey<T>& k, T fallback) {
  const auto it = w.scalars.find(k.name);
  if (it != w.scalars.end() && it->second.size() == sizeof(T))
    std::memcpy(&fallback, it->second.data(), sizeof(T));
  return fallback;
}

// The argument `k`, its default computed by `value` when the feeder gives none.
template <class T>
ArgSpec scalar_arg(const ScalarKey<T>& k, std::function<T(const Workload&)> value) {
  return scalar_arg(k.name, ScalarSpec{k.type, [value = std::move(value)](const Workload& w) {
                                         return bytes_of(value(w));
                                       }});
}

}  // namespace cv::usercode
