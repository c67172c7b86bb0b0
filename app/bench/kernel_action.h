#pragma once
// "run your kernel": the labs window's action for a lab that templates feed
// (usercode/templates/template_registry.h: count3, pi, reduce, ...). It runs the lab's own
// variants, then `bench kernel` (bench_kernel.cpp, the same code as the
// command line) on the kernel tab's text with the lab's n and block, so the
// row "yours" (result, correct against the CPU reference, time, `vs` the
// built-in variants measured in that run) sits beside the built-in rows.
#include <optional>
#include <string>

#include "bench/bench.h"
#include "usercode/templates/template_registry.h"

namespace cv::bench {

inline constexpr const char* kYourKernelAction = "run_your_kernel";

// Why the kernel in `fields.source_text` cannot run on lab `lab` on `backend`
// now (no kernel, a template that feeds something else, the CPU backend, a
// data file), one sentence; nullopt when it can.
std::optional<std::string> your_kernel_unavailable(const std::string& lab, const BenchOptions& fields,
                                                   Backend backend);

// The action for lab `lab` (a template's feeds_name); `default_n` is the lab's
// own default n (yours runs on the same data). Added by the lab's bench file
// when some template feeds it.
LabAction your_kernel_action(const std::string& lab, long long default_n);

}  // namespace cv::bench
