#pragma once
// CPU twins run their per-element math through parallel_for: a small persistent
// pool (one worker per hardware thread) so per-frame use costs no thread spawns.
#include <cstddef>
#include <functional>

namespace cv {

// Calls body(begin, end) on disjoint chunks covering [0, n), in parallel, and
// returns when all are done. Exceptions from body are rethrown (the first one).
void parallel_for(size_t n, const std::function<void(size_t, size_t)>& body);

// Threads parallel_for uses.
unsigned cpu_threads();

}  // namespace cv
