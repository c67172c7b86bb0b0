#pragma once
// Rules the lab templates share: a 1D launch over n elements, the lab's data,
// a zeroed 64-bit result read back, and a check of that result.
#include <cstdint>
#include <functional>
#include <string>

#include "labs/reduce/reduce.h"
#include "usercode/templates/template_spec.h"
#include "usercode/wire/data_generators.h"

namespace cv::usercode::lab_template {

// A grid of ceil(n / (threads * per_thread)) blocks of the workload's block (at
// least 1). Dynamic shared memory: TemplateSpec::shared_bytes_per_thread.
LaunchShape one_dimensional(const Workload& w, unsigned long long per_thread = 1);
// The workload's block as a launch's block.
void set_block(LaunchShape& s, const Workload& w);
// cv::Span<const int> of n int32 values from `generator` (default: the counting labs' data).
SpanSpec lab_data(const std::string& generator = kLabData);
// cv::Span<T> of `count` zeroed 64-bit values, read back (T: "unsigned long long", "long long").
SpanSpec result64(const std::string& type, unsigned long long count = 1);
// The verdict when `name`[0] must equal `reference(w)`, made ready with the
// reference counted (TemplateSpec::prepare).
PrepareCheck exact64(const std::string& name, std::function<long long(const Workload&)> reference);

// The count or sum over span `span` (a lab_data span): drawn value by value
// where the case uses the lab's own data (no array: milliseconds at 16M), else
// over the generated array (the edge cases' generators).
long long lab_total(reduce::Op op, const SpanSpec& s, const Workload& w, const std::string& span);

// Verdict cases (usercode/client/verdict.h): the demo's default (the lab's n and data).
VerdictCase default_case();
// n elements, `words` after "n = N" ("prime"), the span `data`'s generator
// `generator` when given (else the lab's own data).
VerdictCase size_case(long long n, const std::string& words = "", const std::string& data = "",
                      const std::string& generator = "");
// A case named `name` of n elements from `generator` for span `data`.
VerdictCase data_case(const std::string& name, long long n, const std::string& data, const std::string& generator);
// The first value of a read-back span as T (0 when missing).
long long first_value(const ReadBack& rb, const std::string& name);

}  // namespace cv::usercode::lab_template
