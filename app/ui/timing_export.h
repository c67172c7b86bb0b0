#pragma once
// The timing panel's plots as CSV: one row per frame of the history rings,
// newest last, so a class can chart the numbers elsewhere.
#include <string>
#include <utility>
#include <vector>

#include "timing/frame_timers.h"

namespace cv {

class ParticleScene;
struct UiState;

// Columns are aligned at the newest value: a series with fewer values
// (timings that arrive a few frames late) has empty cells at the top.
// The first column is the row's age in frames (0 = newest).
std::string history_csv(const std::vector<std::pair<std::string, const History*>>& columns);

// The "export CSV" button and its message; writes cudaviz-timing-<date>-<time>.csv
// (atomically) in the working directory; the outcome is kept in `ui`'s export fields.
void draw_timing_export(const ParticleScene& scene, UiState& ui);

}  // namespace cv
