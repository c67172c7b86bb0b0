#pragma once
// "run your kernel": the labs window's action for a lab a student's kernel
// template runs on (count3, pi: usercode/templates.h). It runs the lab's own
// variants, then `bench kernel` (bench_kernel.cpp, the same code as the
// command line) on the kernel tab's text with the lab's n and block, so the
// row "yours" (result, correct against the CPU reference, time, `vs` the
// built-in variants measured in that run) sits beside the built-in rows.
#include <optional>
#include <string>

#include "bench/bench.h"
#include "usercode/templates.h"

namespace cv::bench {

inline constexpr const char* kYourKernelAction = "run_your_kernel";

// Why the kernel in `fields.source_text` cannot run on a lab of template
// `kind` on `backend` now (no kernel, another template, the CPU backend, a
// data file), one sentence; nullopt when it can.
std::optional<std::string> your_kernel_unavailable(usercode::TemplateKind kind,
                                                   const BenchOptions& fields, Backend backend);

// The action for a lab whose data template `kind` runs on; `default_n` is the
// lab's own default n (yours runs on the same data).
LabAction your_kernel_action(usercode::TemplateKind kind, long long default_n);

}  // namespace cv::bench
