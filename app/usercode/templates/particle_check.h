#pragma once
// The scene templates' check: each particle the student's kernel wrote
// against the built-in's math from the same constructed state (per component,
// within a tolerance derived from float32 rounding: docs/kernels.md,
// "Tolerances"), and the rules the particle scenes' templates share.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/splitmix.h"
#include "usercode/templates/template_spec.h"

namespace cv::usercode {

// One read-back span's expected values, `comps` floats an element: the
// reference, the tolerance of each component, elements not checked (a branch
// too close to call for float32) and each element's kind in words.
struct Expected {
  std::string name;                     // the span ("out", "vy")
  std::vector<std::string> components;  // "x", "y", ... ("" for a scalar span)
  std::vector<float> value, tol;        // element * comps + component
  std::vector<uint8_t> skip;            // per element
  std::vector<uint8_t> kind;            // per element: an index into kind_words
  const std::vector<std::string>* kind_words = nullptr;
};

struct Compared {
  long long checked = 0, matching = 0, skipped = 0;
  std::optional<Mismatch> first;  // the first element outside its tolerance
};
// Adds `got` (the read-back floats) against `e` to `c`.
void compare(const Expected& e, const std::vector<float>& got, Compared& c);
// The verdict from the spans compared: result = particles matching, reference = checked.
CheckResult verdict_of(const Compared& c);

// Numbers for one particle of a verdict's start: a counter-based stream of its
// own (splitmix64 of the seed and the particle), so particles are drawn in
// parallel, alike everywhere.
class ParticleDraw {
 public:
  ParticleDraw(uint64_t seed, uint64_t particle) : s_{seed ^ (kSplitmixGamma * (particle + 1))} {}
  uint64_t next() { return s_.next(); }
  double in(double lo, double hi) { return lo + (hi - lo) * static_cast<double>(next() >> 11) * 0x1.0p-53; }
  size_t pick(size_t n) { return static_cast<size_t>(next() % n); }

 private:
  SplitmixStream s_;
};

// What the particle scenes' templates share (fountain, swarm): ping-pong `in`
// and `out`, 65,536 particles in 16 x 16 blocks by default, particles/s.
void particle_scene_rules(TemplateSpec& t);

// float32's unit roundoff: a correctly rounded operation is within u * |result|.
constexpr double kUnitRoundoff = 1.0 / 16777216.0;

}  // namespace cv::usercode
