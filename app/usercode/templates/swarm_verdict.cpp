#include "usercode/templates/swarm_verdict.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>

#include "common/parallel_for.h"
#include "swarm/swarm.h"
#include "usercode/templates/check_parts.h"
#include "usercode/templates/swarm_args.h"
#include "usercode/templates/particle_check.h"

namespace cv::usercode::swarm_verdict {
namespace {

constexpr double u = kUnitRoundoff;

enum class Kind : uint8_t { Steer, Respawn, Respawning };
const std::vector<std::string>& kind_words() {
  static const std::vector<std::string> w = {"steering", "respawning now", "respawning after max_age"};
  return w;
}

struct Start {
  std::vector<float4> in, state;  // (x, y, z, age01), (vx, vy, vz, age)
  std::vector<uint8_t> kind;
  float3 target;
  uint32_t key;
};

using Draw = ParticleDraw;  // particle_check.h

Start make_start(unsigned n, swarm::Variant v, const swarm::Params& p, uint64_t seed, const std::vector<Kind>& mix,
                 int steps) {
  Start s;
  Draw d(seed, n);  // the target's and the key's own stream, past every particle's
  s.target = make_float3(static_cast<float>(d.in(-0.6, 0.6)), static_cast<float>(d.in(-0.3, 0.3)),
                         static_cast<float>(d.in(-0.6, 0.6)));
  s.key = static_cast<uint32_t>(d.next());
  s.in.resize(n), s.state.resize(n), s.kind.resize(n);
  parallel_for(n, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) {
      Draw g(seed, i);
      const Kind k = mix[g.next() % mix.size()];
      // At least 0.05 from the target: the push's direction is then far from
      // rounding's reach over a case's few steps.
      const double r = g.in(0.05, 1.5), th = g.in(0, 2 * M_PI), ph = std::acos(g.in(-1, 1));
      const float x = s.target.x + static_cast<float>(r * std::sin(ph) * std::cos(th));
      const float y = s.target.y + static_cast<float>(r * std::cos(ph));
      const float z = s.target.z + static_cast<float>(r * std::sin(ph) * std::sin(th));
      const double vmax = v == swarm::Variant::Sparkler ? 0.02 : 1e-3;
      float age = static_cast<float>(std::floor(g.in(0, p.max_age - steps - 1)));
      if (k == Kind::Respawn) age = p.max_age + static_cast<float>(std::floor(g.in(0, 4)));
      if (k == Kind::Respawning) age = p.max_age - static_cast<float>(std::floor(g.in(1, std::max(2, steps))));
      s.kind[i] = static_cast<uint8_t>(k);
      s.in[i] = make_float4(x, y, z, swarm::age01(age, p));
      s.state[i] = make_float4(static_cast<float>(g.in(-vmax, vmax)), static_cast<float>(g.in(-vmax, vmax)),
                               static_cast<float>(g.in(-vmax, vmax)), age);
    }
  });
  return s;
}

// A particle stepped by the built-in's math, with a bound on how far any
// correct float32 evaluation of the same step may be from it: another order
// of the sums, FMA contraction, rsqrtf's 2 ulp for 1 / sqrt.
struct Tracked {
  swarm::Particle s;
  double e[3] = {0, 0, 0}, ev[3] = {0, 0, 0};
};

void step_tracked(Tracked& t, const float3& target, uint32_t key, uint32_t index, swarm::Variant v,
                  const swarm::Params& p) {
  if (t.s.age >= p.max_age) {
    swarm::respawn(t.s, target, key, index, v, p);
    // Offsets are cubes of exact numbers: three products and a sum a component.
    const double tc[3] = {target.x, target.y, target.z}, xs[3] = {t.s.x, t.s.y, t.s.z},
                 vs[3] = {t.s.vx, t.s.vy, t.s.vz};
    for (int c = 0; c < 3; ++c) t.e[c] = 8 * u * (std::fabs(tc[c]) + std::fabs(xs[c] - tc[c])), t.ev[c] = 8 * u * std::fabs(vs[c]);
  }
  const swarm::Particle b = t.s;
  const double d[3] = {target.x - b.x, target.y - b.y, target.z - b.z};
  double r2 = 1e-12, er2 = 0;
  for (int c = 0; c < 3; ++c) r2 += d[c] * d[c];
  for (int c = 0; c < 3; ++c) er2 += 2 * std::fabs(d[c]) * (t.e[c] + 2 * u * std::fabs(d[c])) + t.e[c] * t.e[c];
  er2 += 8 * u * r2;
  const double rel_push = 0.5 * er2 / r2 + 6 * u + 4 * u;
  const double push = p.attraction * p.dt / std::sqrt(r2), keep = 1.0 - p.drag * p.dt;
  const double ekeep = 4 * u * (1 + std::fabs(p.drag * p.dt));
  swarm::step(t.s, target, key, index, v, p);
  const double vb[3] = {b.vx, b.vy, b.vz}, va[3] = {t.s.vx, t.s.vy, t.s.vz}, xa[3] = {t.s.x, t.s.y, t.s.z};
  for (int c = 0; c < 3; ++c) {
    const double dv = d[c] * push, inner = std::fabs(vb[c]) + std::fabs(dv) + (c == 1 ? std::fabs(p.gravity * p.dt) : 0);
    const double edv = push * (t.e[c] + 2 * u * std::fabs(d[c])) + std::fabs(dv) * (rel_push + 2 * u);
    t.ev[c] = (t.ev[c] + edv + 6 * u * inner) * keep + inner * ekeep + 2 * u * std::fabs(va[c]);
    t.e[c] += t.ev[c] * p.dt + 4 * u * std::fabs(va[c] * p.dt) + 2 * u * std::fabs(xa[c]);
  }
}

// What the built-in's math makes of `s` in `steps` steps (made before the launch).
struct Expectation {
  Expected out, state;
};

Expectation expect(const Start& s, unsigned n, swarm::Variant v, const swarm::Params& p, int steps) {
  Expectation ex{{"out", {"x", "y", "z", "age01"}, {}, {}, {}, s.kind, &kind_words()},
                 {"state", {"vx", "vy", "vz", "age"}, {}, {}, {}, s.kind, &kind_words()}};
  Expected &out = ex.out, &st = ex.state;
  for (Expected* e : {&out, &st}) e->value.resize(4ull * n), e->tol.resize(4ull * n);
  parallel_for(std::min<size_t>(n, s.in.size()), [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) {
      Tracked t{{s.in[i].x, s.in[i].y, s.in[i].z, s.state[i].x, s.state[i].y, s.state[i].z, s.state[i].w}};
      for (int k = 0; k < steps; ++k) step_tracked(t, s.target, s.key, static_cast<uint32_t>(i), v, p);
      const float age01 = swarm::age01(t.s.age, p);
      const float o[4] = {t.s.x, t.s.y, t.s.z, age01}, q[4] = {t.s.vx, t.s.vy, t.s.vz, t.s.age};
      for (int c = 0; c < 4; ++c) {
        out.value[4 * i + c] = o[c], st.value[4 * i + c] = q[c];
        // Ages count whole steps (exact); age01 is one division (or a product by 1 / max_age).
        out.tol[4 * i + c] = static_cast<float>(c < 3 ? 2 * t.e[c] : 4 * u * age01);
        st.tol[4 * i + c] = static_cast<float>(c < 3 ? 2 * t.ev[c] : 0);
      }
    }
  });
  return ex;
}

CheckResult check(const Expectation& e, const ReadBack& rb) {
  Compared c;
  compare(e.out, check::values<float>(rb, "out"), c);
  Compared cs;
  compare(e.state, check::values<float>(rb, "state"), cs);
  CheckResult r = verdict_of(c);
  if (r.correct && cs.first) r = verdict_of(cs);
  return r;
}

VerdictCase make_case(const std::string& name, long long n, int steps, swarm::Variant v, std::vector<Kind> mix) {
  VerdictCase c;
  c.name = name;
  c.n = n;
  c.steps = steps;
  c.setup = [=](Workload& w) {
    const swarm::Params p = swarm::default_params(v);
    const Start s = make_start(static_cast<unsigned>(w.n), v, p, w.seed, mix, steps);
    w.init["in"] = bytes_of_all(s.in);
    w.init["state"] = bytes_of_all(s.state);
    w.init["out"] = bytes_of_all(std::vector<float>(4 * s.in.size(), std::numeric_limits<float>::quiet_NaN()));
    put(w, swarm_args::target, s.target);
    put(w, swarm_args::key, s.key);
    put(w, swarm_args::variant, v);
    put(w, swarm_args::params, p);
  };
  c.prepare = [=](const Workload& w, Backend) -> Check {
    const swarm::Params p = swarm::default_params(v);
    const Start s = make_start(static_cast<unsigned>(w.n), v, p, w.seed, mix, w.reps);
    auto e = std::make_shared<const Expectation>(expect(s, static_cast<unsigned>(w.n), v, p, w.reps));
    return [e](const Workload&, const ReadBack& rb, Backend) { return check(*e, rb); };
  };
  return c;
}

}  // namespace

std::vector<VerdictCase> cases() {
  using K = Kind;
  const swarm::Variant swarming = swarm::Variant::Swarm, sparkler = swarm::Variant::Sparkler;
  return {
      make_case("the demo's default", 0, 4, swarming, {K::Steer, K::Steer, K::Respawn, K::Respawning}),
      make_case("the swarm steering to its target", 2304, 6, swarming, {K::Steer}),
      make_case("the swarm's respawn at the target", 2304, 4, swarming, {K::Respawn, K::Respawning}),
      make_case("the sparkler: push, gravity and drag", 2304, 5, sparkler, {K::Steer}),
      make_case("the sparkler's respawn (a burst)", 2304, 4, sparkler, {K::Respawn, K::Respawning}),
      make_case("n = 1", 1, 4, swarming, {K::Steer, K::Respawn}),
      make_case("n = 23 (5 x 5, a ragged last row)", 23, 3, sparkler, {K::Steer, K::Respawn, K::Respawning}),
      make_case("n = 1361 (37 x 37, ragged in x and y)", 1361, 3, swarming, {K::Steer, K::Respawn, K::Respawning}),
  };
}

}  // namespace cv::usercode::swarm_verdict
