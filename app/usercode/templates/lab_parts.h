#pragma once
// Rules the lab templates share: a 1D launch over n elements, the lab's data,
// a zeroed 64-bit result read back, and a check of that result.
#include <cstdint>
#include <functional>
#include <string>

#include "usercode/templates/template_spec.h"

namespace cv::usercode::lab_template {

// A grid of ceil(n / (threads * per_thread)) blocks of the workload's block (at
// least 1), with `shared_per_thread` bytes of dynamic shared memory a thread.
LaunchShape one_dimensional(const Workload& w, unsigned long long per_thread = 1,
                            unsigned shared_per_thread = 0);
// The workload's block as a launch's block.
void set_block(LaunchShape& s, const Workload& w);
// cv::Span<const int> of n int32 values from `generator` (default: the counting labs' data).
SpanSpec lab_data(const std::string& generator = "lab_data");
// cv::Span<T> of `count` zeroed 64-bit values, read back (T: "unsigned long long", "long long").
SpanSpec result64(const std::string& type, unsigned long long count = 1);
// The verdict when `name`[0] must equal `reference(w)`.
std::function<CheckResult(const Workload&, const ReadBack&, Backend)> exact64(
    const std::string& name, std::function<long long(const Workload&)> reference);
// The first value of a read-back span as T (0 when missing).
long long first_value(const ReadBack& rb, const std::string& name);

}  // namespace cv::usercode::lab_template
