#include "timing/frame_pacing.h"

#include <algorithm>
#include <cmath>

namespace cv::pacing {

StepPlan plan_steps(double pending, double elapsed, double step, int max_steps) {
  if (!std::isfinite(elapsed) || elapsed < 0) elapsed = 0;
  if (!std::isfinite(pending) || pending < 0) pending = 0;
  const double whole = std::round(elapsed / step);
  if (whole >= 1 && std::abs(elapsed - whole * step) < kSnapFraction * step) elapsed = whole * step;
  StepPlan plan;
  plan.pending = pending + elapsed;
  // A hair of tolerance so that 3 x (1/60) counts as 3 steps despite rounding.
  const double due = std::floor(plan.pending / step + 1e-9);
  if (due > max_steps) {
    plan.steps = max_steps;
    plan.pending = 0;
    plan.dropped = true;
    return plan;
  }
  plan.steps = static_cast<int>(due);
  plan.pending = std::max(0.0, plan.pending - due * step);
  return plan;
}

std::optional<std::string> check_fps_cap(long long cap) {
  if (cap == 0 || (cap >= kMinFpsCap && cap <= kMaxFpsCap)) return std::nullopt;
  return "fps cap " + std::to_string(cap) + " is out of range: 0 (off) or " +
         std::to_string(kMinFpsCap) + ".." + std::to_string(kMaxFpsCap) + " frames per second";
}

double cap_wait(double frame_start, double now, int cap) {
  if (cap <= 0) return 0;
  const double left = frame_start + 1.0 / cap - now;
  return left > 0 ? left : 0;
}

}  // namespace cv::pacing
