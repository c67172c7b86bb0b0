#pragma once
// The fountain templates' test set: particle states built directly so every
// branch of the step is reached within a few steps (launch, flight, a bounce
// on the table, a landing at its edge either way, a miss beside it, respawn,
// the reset's parked particles), and the check against the built-in's math
// (kernels/fountain/fountain_math.h) stepped from the same state, each
// component within a tolerance derived from float32 rounding
// (docs/kernels.md, "Tolerances").
#include <vector_types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "fountain/fountain.h"
#include "usercode/templates/particle_check.h"
#include "usercode/templates/template_spec.h"

namespace cv::usercode::fountain_verdict {

enum class Kind : uint8_t { Flight, Landing, EdgeOut, EdgeIn, Beside, Launch, Respawn, Parked };
// Each kind in words, for the mismatch ("out[12].y (a landing at the table's edge, moving out)").
const std::vector<std::string>& kind_words();

// A case's start: particles and their vertical speeds, each particle's kind,
// the frame every step of the case uses.
struct Start {
  std::vector<float4> positions;
  std::vector<float> vy;
  std::vector<uint8_t> kind;
  fountain::Frame frame;
};
// n particles of the kinds in `mix` (drawn from `seed`), placed so that no
// branch of the first `steps` steps is within float32 rounding of its edge.
Start make_start(unsigned n, const fountain::Params& p, uint64_t seed, const std::vector<Kind>& mix, int steps);

// What the built-in's math makes of `s` in `steps` steps: out and vy, each
// component with its tolerance (the costly part of a check, made before the launch).
struct Expectation {
  Expected out, vy;
};
Expectation expect(const Start& s, unsigned n, const fountain::Params& p, int steps);
// `rb` (out, vy) against the expectation.
CheckResult check(const Expectation& e, const ReadBack& rb);

// The fountain templates' cases, in order (the demo's default first).
std::vector<VerdictCase> cases();

}  // namespace cv::usercode::fountain_verdict
