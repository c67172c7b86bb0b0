// Initial conditions: a uniform sphere, a rotating disk, two colliding disks.
#include "nbody/nbody_initial.h"

#include <vector_functions.h>

#include <cmath>

namespace cv::nbody {
namespace {

constexpr double kPi = 3.14159265358979323846;

// splitmix64: a small, well-mixed, seedable generator; the same seed gives the
// same bodies on every machine.
class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t next() {
    uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); }
  double gauss() {  // Box-Muller; 1 - u keeps the log finite
    const double r = std::sqrt(-2.0 * std::log(1.0 - uniform()));
    return r * std::cos(2.0 * kPi * uniform());
  }

 private:
  uint64_t s_;
};

struct Vec {
  double x = 0, y = 0, z = 0;
};

void put(Bodies& b, size_t i, Vec x, Vec v, double m) {
  b.pos[i] =
      make_float4(static_cast<float>(x.x), static_cast<float>(x.y), static_cast<float>(x.z), 0.f);
  b.vel[i] = make_float4(static_cast<float>(v.x), static_cast<float>(v.y), static_cast<float>(v.z),
                         static_cast<float>(m));
}

void sphere(Bodies& b, const Params& p, Rng& rng) {
  const size_t n = b.pos.size();
  const double mass = 1.0 / static_cast<double>(n), radius = 1.0;
  const double omega = 0.3 * std::sqrt(p.G / (radius * radius * radius));
  const double sigma = std::sqrt(0.1 * p.G / radius);  // half the virial dispersion
  for (size_t i = 0; i < n; ++i) {
    Vec x;
    double r2;
    do {
      x = {2 * rng.uniform() - 1, 2 * rng.uniform() - 1, 2 * rng.uniform() - 1};
      r2 = x.x * x.x + x.y * x.y + x.z * x.z;
    } while (r2 > 1.0);
    x = {x.x * radius, x.y * radius, x.z * radius};
    const Vec v{omega * x.z + sigma * rng.gauss(), sigma * rng.gauss(),
                -omega * x.x + sigma * rng.gauss()};
    put(b, i, x, v, mass);
  }
}

// A disk of `count` bodies starting at index `first`: a central body of 30% of
// the mass, the rest spread evenly over the area between r_min and radius, on
// circular orbits for the mass inside them, tilted about the x axis.
void disk(Bodies& b, size_t first, size_t count, double mass, double radius, double tilt,
          Vec centre, Vec drift, const Params& p, Rng& rng) {
  if (count == 0) return;
  const double core = count == 1 ? mass : 0.3 * mass;
  const double each = count == 1 ? 0.0 : (mass - core) / static_cast<double>(count - 1);
  const double r_min = 0.05 * radius, eps2 = static_cast<double>(p.softening) * p.softening;
  const double ct = std::cos(tilt), st = std::sin(tilt);
  auto place = [&](size_t i, Vec x, Vec v, double m) {
    const Vec xr{x.x, ct * x.y - st * x.z, st * x.y + ct * x.z};
    const Vec vr{v.x, ct * v.y - st * v.z, st * v.y + ct * v.z};
    put(b, i, {centre.x + xr.x, centre.y + xr.y, centre.z + xr.z},
        {drift.x + vr.x, drift.y + vr.y, drift.z + vr.z}, m);
  };
  place(first, {}, {}, core);
  for (size_t k = 1; k < count; ++k) {
    const double u = rng.uniform();
    const double r2 = r_min * r_min + u * (radius * radius - r_min * r_min);
    const double r = std::sqrt(r2), theta = 2.0 * kPi * rng.uniform();
    const double inside = core + (mass - core) * u;
    // Circular speed for the softened pull of the mass inside r.
    const double speed = std::sqrt(p.G * inside * r2 / std::pow(r2 + eps2, 1.5));
    const double c = std::cos(theta), s = std::sin(theta);
    place(first + k, {r * c, 0.01 * radius * rng.gauss(), r * s}, {-speed * s, 0.0, speed * c},
          each);
  }
}

// Moves the centre of mass to the origin and removes the total momentum.
void centre(Bodies& b) {
  Vec x, v;
  double m = 0;
  for (size_t i = 0; i < b.pos.size(); ++i) {
    const double w = b.vel[i].w;
    x = {x.x + w * b.pos[i].x, x.y + w * b.pos[i].y, x.z + w * b.pos[i].z};
    v = {v.x + w * b.vel[i].x, v.y + w * b.vel[i].y, v.z + w * b.vel[i].z};
    m += w;
  }
  if (m <= 0) return;
  for (size_t i = 0; i < b.pos.size(); ++i) {
    b.pos[i].x = static_cast<float>(b.pos[i].x - x.x / m);
    b.pos[i].y = static_cast<float>(b.pos[i].y - x.y / m);
    b.pos[i].z = static_cast<float>(b.pos[i].z - x.z / m);
    b.vel[i].x = static_cast<float>(b.vel[i].x - v.x / m);
    b.vel[i].y = static_cast<float>(b.vel[i].y - v.y / m);
    b.vel[i].z = static_cast<float>(b.vel[i].z - v.z / m);
  }
}

}  // namespace

const char* to_string(Initial ic) {
  switch (ic) {
    case Initial::Sphere:
      return "sphere";
    case Initial::Disk:
      return "disk";
    case Initial::Galaxies:
      return "galaxies";
  }
  return "?";
}

std::optional<Initial> parse_initial(const std::string& name) {
  for (Initial ic : all_initials())
    if (name == to_string(ic)) return ic;
  return std::nullopt;
}

const std::vector<Initial>& all_initials() {
  static const std::vector<Initial> v{Initial::Sphere, Initial::Disk, Initial::Galaxies};
  return v;
}

Bodies make_bodies(Initial ic, unsigned count, const Params& p, uint64_t seed) {
  Bodies b;
  b.pos.resize(count);
  b.vel.resize(count);
  if (count == 0) return b;
  Rng rng(seed);
  switch (ic) {
    case Initial::Sphere:
      sphere(b, p, rng);
      break;
    case Initial::Disk:
      disk(b, 0, count, 1.0, 1.0, 0.0, {}, {}, p, rng);
      break;
    case Initial::Galaxies: {
      const size_t a = count / 2, c = count - a;
      // A single body carries all the mass (the second disk is empty).
      disk(b, 0, c, a == 0 ? 1.0 : 0.5, 0.6, 0.0, {-1.0, 0.15, -0.25}, {0.25, 0.0, 0.0}, p, rng);
      disk(b, c, a, 0.5, 0.6, 0.7, {1.0, -0.15, 0.25}, {-0.25, 0.0, 0.0}, p, rng);
      break;
    }
  }
  centre(b);
  for (size_t i = 0; i < count; ++i) {
    const float4 v = b.vel[i];
    b.pos[i].w = speed(make_float3(v.x, v.y, v.z));
  }
  return b;
}

}  // namespace cv::nbody
