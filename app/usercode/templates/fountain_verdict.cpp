#include "usercode/templates/fountain_verdict.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>

#include "common/parallel_for.h"
#include "fountain/fountain_math.h"
#include "usercode/templates/check_parts.h"
#include "usercode/templates/fountain_args.h"
#include "usercode/templates/particle_check.h"

namespace cv::usercode::fountain_verdict {
namespace {

constexpr double u = kUnitRoundoff;

using Draw = ParticleDraw;  // particle_check.h

// One particle of `kind`, its launch velocity (vx, vz) fixed by its place in the grid.
void place(Kind kind, float vx, float vz, const fountain::Params& p, int steps, Draw& d, float4& q, float& vy) {
  const double R = p.table_radius, vh = std::hypot(vx, vz), angle = d.in(0, 2 * M_PI);
  double r = d.in(0, R - 0.5), y = d.in(0.3, 2.0), v = d.in(-0.01, 0.02);
  double age = std::floor(d.in(1, p.max_age - steps - 2));
  double x = r * std::cos(angle), z = r * std::sin(angle);
  const bool lands = kind == Kind::Landing || kind == Kind::EdgeOut || kind == Kind::EdgeIn || kind == Kind::Beside;
  if (lands) y = d.in(0.0005, 0.004), v = d.in(-0.012, -0.006);  // below 0 after one step
  if (kind == Kind::EdgeOut || kind == Kind::EdgeIn) {
    // On the line of its own horizontal velocity, 0.3 of a step inside the
    // edge moving out, or outside moving in: the step crosses the edge.
    const double at = kind == Kind::EdgeOut ? R - 0.3 * vh : -(R + 0.3 * vh);
    x = at * vx / vh, z = at * vz / vh;
  }
  if (kind == Kind::Beside) {
    r = d.in(R + 0.5, R + 3);
    x = r * std::cos(angle), z = r * std::sin(angle);
  }
  if (kind == Kind::Launch) age = p.max_age + std::floor(d.in(0, 10));
  if (kind == Kind::Respawn) age = p.max_age - std::floor(d.in(1, std::max(2, steps)));
  if (kind == Kind::Parked) x = z = 0, y = fountain::kHiddenY, v = 0, age = std::floor(d.in(0, p.max_age - steps - 1));
  q = make_float4(static_cast<float>(x), static_cast<float>(y), static_cast<float>(z), static_cast<float>(age));
  vy = static_cast<float>(v);
}

// A particle stepped by the built-in's math, with a bound on how far any
// correct float32 evaluation of the same step (another order, FMA
// contraction) may be from it, and whether a branch came within that bound.
struct Tracked {
  fountain::Particle s;
  double ex = 0, ey = 0, ez = 0, evy = 0;
  bool ambiguous = false;
};

void step_tracked(Tracked& t, float vx, float vz, const fountain::Frame& f, const fountain::Params& p) {
  const fountain::Particle before = t.s;
  fountain::step(t.s, vx, vz, f, p);
  // What the step started from: the particle, or its respawn at the emitter.
  double bx = before.x, by = before.y, bz = before.z, bvy = before.vy;
  double ex = t.ex, ey = t.ey, ez = t.ez, evy = t.evy;
  if (before.age >= p.max_age) {
    bx = f.emitter_x, by = 0, bz = f.emitter_z;
    bvy = static_cast<float>(p.launch_speed + p.launch_jitter * f.randy);
    ex = ey = ez = 0;
    evy = 2 * u * (std::fabs(p.launch_speed) + std::fabs(p.launch_jitter * f.randy));
  }
  // The bounce's two tests, at the position before the move and the new height.
  const double ny = by + bvy, eny = ey + evy + 2 * u * std::fabs(ny);
  const double R2 = static_cast<double>(p.table_radius) * p.table_radius;
  const double r2 = bx * bx + bz * bz;
  const double er2 = 2 * std::fabs(bx) * ex + 2 * std::fabs(bz) * ez + ex * ex + ez * ez + 4 * u * r2 + 2 * u * R2;
  if (std::fabs(ny) <= eny || (ny <= eny && std::fabs(r2 - R2) <= er2)) t.ambiguous = true;
  const float fell = static_cast<float>(bvy) - p.gravity;
  const bool bounced = t.s.vy != fell;
  // Any order of vx = spread * (gx / width - 0.5) is within 4u * spread.
  t.ex = ex + 4 * u * p.spread + 2 * u * std::fabs(t.s.x);
  t.ez = ez + 4 * u * p.spread + 2 * u * std::fabs(t.s.z);
  t.ey = ey + evy + 2 * u * std::fabs(t.s.y);
  t.evy = (evy + 2 * u * std::fabs(fell)) * (bounced ? p.restitution : 1.0) + (bounced ? 2 * u * std::fabs(t.s.vy) : 0.0);
}

fountain::Params params_of(const Workload& w) { return read_or(w, fountain_args::params, {}); }

VerdictCase make_case(const std::string& name, long long n, int steps, std::vector<Kind> mix) {
  VerdictCase c;
  c.name = name;
  c.n = n;
  c.steps = steps;
  c.setup = [mix, steps](Workload& w) {
    const Start s = make_start(static_cast<unsigned>(w.n), params_of(w), w.seed, mix, steps);
    w.init["in"] = bytes_of_all(s.positions);
    w.init["vy"] = bytes_of_all(s.vy);
    // Particles the kernel does not write read back as NaN.
    w.init["out"] = bytes_of_all(std::vector<float>(4 * s.positions.size(), std::numeric_limits<float>::quiet_NaN()));
    put(w, fountain_args::frame, s.frame);
  };
  c.prepare = [mix](const Workload& w, Backend) -> Check {
    const Start s = make_start(static_cast<unsigned>(w.n), params_of(w), w.seed, mix, w.reps);
    auto e = std::make_shared<const Expectation>(expect(s, static_cast<unsigned>(w.n), params_of(w), w.reps));
    return [e](const Workload&, const ReadBack& rb, Backend) { return check(*e, rb); };
  };
  return c;
}

}  // namespace

const std::vector<std::string>& kind_words() {
  static const std::vector<std::string> w = {
      "in flight", "landing on the table", "landing at the table's edge, moving out",
      "landing just beside the edge, moving in", "falling beside the table", "respawning at the emitter",
      "respawning after max_age", "parked below the scene"};
  return w;
}

Start make_start(unsigned n, const fountain::Params& p, uint64_t seed, const std::vector<Kind>& mix, int steps) {
  Start s;
  Draw d(seed, n);  // the frame's own stream, past every particle's
  const double angle = d.in(0, 2 * M_PI);
  s.frame.emitter_x = static_cast<float>(p.emitter_radius * std::sin(angle));
  s.frame.emitter_z = static_cast<float>(p.emitter_radius * std::cos(angle));
  s.frame.randy = static_cast<float>(d.in(0, 1));
  const fountain::Grid g = fountain::make_grid(n);
  s.positions.resize(n);
  s.vy.resize(n);
  s.kind.resize(n);
  parallel_for(n, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) {
      Draw di(seed, i);
      const unsigned gx = static_cast<unsigned>(i % g.width), gy = static_cast<unsigned>(i / g.width);
      const float vx = fountain::launch_vx(gx, g, p), vz = fountain::launch_vz(gy, g, p);
      Kind k = mix[di.pick(mix.size())];
      // An edge crossing needs a horizontal speed well above rounding.
      if ((k == Kind::EdgeOut || k == Kind::EdgeIn) && std::hypot(vx, vz) < 0.15 * p.spread) k = Kind::Landing;
      s.kind[i] = static_cast<uint8_t>(k);
      place(k, vx, vz, p, steps, di, s.positions[i], s.vy[i]);
    }
  });
  return s;
}

Expectation expect(const Start& s, unsigned n, const fountain::Params& p, int steps) {
  const fountain::Grid g = fountain::make_grid(n);
  Expectation ex{{"out", {"x", "y", "z", "age"}, {}, {}, {}, s.kind, &kind_words()},
                 {"vy", {}, {}, {}, {}, s.kind, &kind_words()}};
  Expected &out = ex.out, &vy = ex.vy;
  out.value.resize(4ull * n), out.tol.resize(4ull * n), out.skip.resize(n);
  vy.value.resize(n), vy.tol.resize(n), vy.skip.resize(n);
  parallel_for(std::min<size_t>(n, s.positions.size()), [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) {
      const float4 q = s.positions[i];
      Tracked t{{q.x, q.y, q.z, q.w, s.vy[i]}};
      const unsigned gx = static_cast<unsigned>(i % g.width), gy = static_cast<unsigned>(i / g.width);
      const float vx = fountain::launch_vx(gx, g, p), vz = fountain::launch_vz(gy, g, p);
      for (int k = 0; k < steps; ++k) step_tracked(t, vx, vz, s.frame, p);
      const float got[5] = {t.s.x, t.s.y, t.s.z, t.s.age, t.s.vy};
      const double err[5] = {t.ex, t.ey, t.ez, 0, t.evy};  // age counts in whole steps: exact
      for (int c = 0; c < 4; ++c) out.value[4 * i + c] = got[c], out.tol[4 * i + c] = static_cast<float>(2 * err[c]);
      vy.value[i] = got[4], vy.tol[i] = static_cast<float>(2 * err[4]);
      out.skip[i] = vy.skip[i] = t.ambiguous;
    }
  });
  return ex;
}

CheckResult check(const Expectation& e, const ReadBack& rb) {
  Compared c;
  compare(e.out, check::values<float>(rb, "out"), c);
  Compared v;
  compare(e.vy, check::values<float>(rb, "vy"), v);
  CheckResult r = verdict_of(c);
  if (r.correct && v.first) r = verdict_of(v);  // positions right, speeds not
  return r;
}

std::vector<VerdictCase> cases() {
  using K = Kind;
  const std::vector<Kind> all = {K::Flight, K::Landing, K::EdgeOut, K::EdgeIn, K::Beside, K::Launch, K::Respawn, K::Parked};
  std::vector<VerdictCase> c = {
      make_case("the demo's default", 0, 4, all),
      make_case("launch from the emitter", 2304, 6, {K::Launch}),
      make_case("flight", 2304, 8, {K::Flight}),
      make_case("a bounce on the table", 2304, 4, {K::Landing}),
      make_case("a landing at the table's edge", 2304, 3, {K::EdgeOut, K::EdgeIn}),
      make_case("a miss beside the table", 2304, 4, {K::Beside}),
      make_case("respawn after max_age", 2304, 6, {K::Respawn}),
      make_case("n = 1", 1, 4, all),
      make_case("n = 23 (5 x 5, a ragged last row)", 23, 3, all),
      make_case("n = 1361 (37 x 37, ragged in x and y)", 1361, 3, all),
  };
  return c;
}

}  // namespace cv::usercode::fountain_verdict
