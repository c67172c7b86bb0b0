// Host-side pieces shared by both backends: variants, grid, target path,
// initial state.
#include <cmath>

#include "swarm/swarm.h"

namespace cv::swarm {

const char* to_string(Variant v) { return name_of(kVariants, v); }

std::optional<Variant> parse_variant(const std::string& name) {
  return parse_name(kVariants, name);
}

const std::vector<Variant>& all_variants() {
  static const std::vector<Variant> v = values_of(kVariants);
  return v;
}

Grid make_grid(unsigned count) {
  Grid g;
  g.count = count;
  if (count == 0) return g;
  g.width = static_cast<unsigned>(std::ceil(std::sqrt(static_cast<double>(count))));
  g.height = (count + g.width - 1) / g.width;
  return g;
}

size_t vbo_bytes(unsigned count) {
  return static_cast<size_t>(count) * sizeof(float4);
}

float3 path_target(uint64_t step, float radius) {
  // One lap in ~2000 steps: slow enough that the document's gentle attraction keeps
  // the swarm around the target instead of trailing it round the path.
  const double t = static_cast<double>(step) * 0.003;
  return make_float3(static_cast<float>(radius * std::sin(t)),
                     static_cast<float>(0.5 * radius * std::sin(1.7 * t)),
                     static_cast<float>(radius * std::cos(0.6 * t)));
}

InitialState initial_state(unsigned count, Variant v, const Params& p, uint64_t seed,
                           float3 target) {
  InitialState s;
  s.vbo.resize(count);
  s.state.resize(count);
  // Spawn everyone as a respawn would at "step -1", then give each a random age.
  const uint32_t key = step_key(seed, ~0ull);
  const unsigned max_age = p.max_age >= 1.f ? static_cast<unsigned>(p.max_age) : 1u;
  for (unsigned i = 0; i < count; ++i) {
    Particle q{};
    respawn(q, target, key, i, v, p);
    q.age = static_cast<float>(hash32(key + 0x51ed270bu * (i + 1)) % max_age);
    s.vbo[i] = make_float4(q.x, q.y, q.z, age01(q.age, p));
    s.state[i] = make_float4(q.vx, q.vy, q.vz, q.age);
  }
  return s;
}

}  // namespace cv::swarm
