#pragma once
// A GPU runs a racy kernel's threads in whatever order its warps happen to
// take: a lost update or a missing barrier often leaves the answer right on
// the device, and the test set passes. The race check judges the same source
// on the CPU emulator, whose verdict schedules switch threads at barriers and
// at every shared or global store (docs/emulator.md, "Races on the CPU"), at
// small sizes: a race shows there as a wrong answer, every time. The kernel
// tab and bench kernel add it to a GPU verdict as one more case.
#include <cstdint>
#include <optional>
#include <string>

#include "config/config.h"
#include "usercode/client/verdict.h"

namespace cv::usercode {

// The race case's name: this, then the emulator's failing case ("n = 1").
inline constexpr const char* kRaceCase = "races (the CPU emulator's schedules)";

struct RaceCheck {
  std::optional<CaseOutcome> outcome;  // the case to add (passed, failed or a fault), unset when not run
  std::string not_run;                 // why it did not run ("" when it did)
  double ms = 0;                       // compile and emulated cases
};

// Only whole kernels race (a per-item function has one thread's work).
bool can_race(const TemplateSpec& t);

// `source` compiled for the CPU and judged there on `t`'s test set (the demo's
// case at a small size, `seed`'s inputs); the first failing case becomes
// "races (the CPU emulator's schedules): CASE".
RaceCheck check_races(const TemplateSpec& t, const std::string& source, const PathConfig& paths, uint64_t seed,
                      double time_limit_s = 2.0);

// `v` with the race check's case added (a failed one makes it wrong).
void add_race_case(Verdict& v, const RaceCheck& r);

}  // namespace cv::usercode
