#pragma once
// Seeded, deterministic initial conditions for the n-body scene, built on the
// host (both backends start from the same bodies).
#include <vector_types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nbody/nbody_math.h"

namespace cv::nbody {

enum class Initial { Sphere, Disk, Galaxies };
const char* to_string(Initial ic);
std::optional<Initial> parse_initial(const std::string& name);
const std::vector<Initial>& all_initials();

struct Bodies {
  std::vector<float4> pos;  // x, y, z, |v|: the VBO layout
  std::vector<float4> vel;  // vx, vy, vz, mass
};

// Total mass 1, radius ~1, zero total momentum. Velocities use p.G and
// p.softening so disks start close to rotational balance.
//   sphere   - uniform ball, slow solid rotation plus random motion (sub-virial,
//              so it contracts a little and rings).
//   disk     - a heavy central body and a thin disk on near-circular orbits.
//   galaxies - two such disks, one tilted, falling towards each other off-axis.
Bodies make_bodies(Initial ic, unsigned count, const Params& p, uint64_t seed);

}  // namespace cv::nbody
