#pragma once
// The interop part of `cudaviz doctor`'s findings: the CUDA -> GL path the
// app's vertex buffers take, decided by the app's own chain (interop_path.h)
// from the probed facts, and each path tried before it with why it failed, in
// the chain's order (external memory -> map -> copy). Pure: tested with fake facts.
#include <vector>

#include "gl/interop_path.h"
#include "system/system_facts.h"
#include "system/system_findings.h"

namespace cv::sys {

// The path the app takes with these facts (choose_interop_path).
InteropPath interop_path(const InteropFacts& i);

// Appends the interop findings; when the chain was not probed (no CUDA),
// only a CUDAVIZ_INTEROP the app cannot parse.
void interop_findings(const Facts& f, std::vector<Finding>& out);

}  // namespace cv::sys
