// Host-side pieces shared by both backends: variants, grid, frames, initial state.
#include <cmath>

#include "fountain/fountain.h"

namespace cv::fountain {

const char* to_string(Variant v) { return name_of(kVariants, v); }

std::optional<Variant> parse_variant(const std::string& name) {
  return parse_name(kVariants, name);
}

const std::vector<Variant>& all_variants() {
  static const std::vector<Variant> v = values_of(kVariants);
  return v;
}

bool stores_colour(Variant v) { return v == Variant::Original; }

size_t vbo_bytes(Variant v, unsigned count) {
  return static_cast<size_t>(count) * sizeof(float4) * (stores_colour(v) ? 2 : 1);
}

size_t bytes_per_particle_step(Variant v) {
  // lean: read+write float4 position/age and float vy.
  // original: read position and state, write position, colour and state.
  return v == Variant::Lean ? 2 * (16 + 4) : 16 + 16 + 16 + 16 + 16;
}

Grid make_grid(unsigned count) {
  Grid g;
  g.count = count;
  if (count == 0) return g;
  g.width = static_cast<unsigned>(std::ceil(std::sqrt(static_cast<double>(count))));
  g.height = (count + g.width - 1) / g.width;
  return g;
}

static uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

Frame FrameClock::next(const Params& p) {
  const double angle = static_cast<double>(steps_) * p.emitter_speed;
  Frame f;
  f.emitter_x = static_cast<float>(std::sin(angle) * p.emitter_radius);
  f.emitter_z = static_cast<float>(std::cos(angle) * p.emitter_radius);
  f.randy = static_cast<float>(splitmix(rng_) >> 40) / static_cast<float>(1ull << 24);
  ++steps_;
  return f;
}

InitialState initial_state(const Grid& g, const Params& p, uint64_t seed) {
  InitialState s;
  s.positions.resize(g.count);
  s.vy.assign(g.count, 0.f);
  uint64_t rng = seed;
  const unsigned max_age = p.max_age >= 1.f ? static_cast<unsigned>(p.max_age) : 1u;
  for (unsigned i = 0; i < g.count; ++i) {
    const float age = static_cast<float>(splitmix(rng) % max_age);
    s.positions[i] = make_float4(0.f, kHiddenY, 0.f, age);
  }
  return s;
}

}  // namespace cv::fountain
