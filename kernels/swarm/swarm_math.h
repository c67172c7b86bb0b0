#pragma once
// The swarm of document 004, one particle at a time. Written once, called by the
// CUDA kernel (swarm.cu) and the CPU twin (swarm_cpu.cpp).
//
// swarm    - every particle accelerates towards a target (the document's kernel:
//            a fixed-size push along the unit vector to the target), and when
//            it reaches max_age it respawns near the target.
// sparkler - particles are born at the target, burst outwards, keep being
//            pushed away from it and fall under gravity.
// Units follow the fountain (document 004): one step per frame (dt = 1), distances in scene units.
#include <vector_functions.h>  // make_float4 on host and device
#include <vector_types.h>

#include <cmath>
#include <cstdint>

#include "common/hd.h"

namespace cv::swarm {

enum class Variant { Swarm, Sparkler };

struct Params {
  float attraction = 5e-6f;      // speed gained per step along the unit vector to (swarm) or from
                                 // (sparkler) the target
  float max_age = 600.f;         // steps a particle lives before respawning
  float dt = 1.f;                // time per step (in frames): scales forces, motion and ageing
  float spawn_radius = 0.25f;    // respawn offset from the target along each axis, at most
  float spawn_speed = 1.25e-4f;  // respawn speed along each axis, at most (sparkler: outward burst)
  float gravity = 0.f;           // speed lost downwards (-y) per step
  float drag = 0.f;  // fraction of the velocity lost per step (0: the document's undamped swarm)
};

// Sensible parameters per variant: the document's swarm, and a sparkler whose
// sparks fly out fast, are pushed a little and fall.
inline Params default_params(Variant v) {
  Params p;
  if (v == Variant::Sparkler) {
    p.attraction = 2e-5f;
    p.max_age = 240.f;
    p.spawn_radius = 0.02f;
    p.spawn_speed = 0.02f;
    p.gravity = 1.5e-4f;
    p.drag = 0.01f;
  }
  return p;
}

// Particles are laid out on a width x height grid (the document's 2D launch), the
// last row possibly partial: index = y * width + x < count.
struct Grid {
  unsigned width = 0, height = 0, count = 0;
};

// One particle's state: position, velocity and age in steps.
struct Particle {
  float x, y, z;
  float vx, vy, vz;
  float age;
};

// A counter-based hash: the same 32 bits on the host and the device for the
// same (seed, step, particle, stream), so respawns need no stored RNG state and
// both backends draw identical numbers.
CV_HD uint32_t hash32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}
// Uniform in [-1, 1): exact in float (24 bits), so identical everywhere.
CV_HD float uniform_pm1(uint32_t key, uint32_t index, uint32_t stream) {
  const uint32_t h = hash32(key ^ hash32(index * 3u + stream + 0x9e3779b9u));
  return static_cast<float>(h >> 8) * (2.f / 16777216.f) - 1.f;
}
// Per-step key: mixes the reset seed and the step counter.
CV_HD uint32_t step_key(uint64_t seed, uint64_t step) {
  return hash32(static_cast<uint32_t>(seed) ^
                hash32(static_cast<uint32_t>(seed >> 32) + 0x632be5abu)) ^
         hash32(static_cast<uint32_t>(step) * 0x9e3779b1u + static_cast<uint32_t>(step >> 32));
}

// Respawn at the target: offsets and velocities cubed as in the seed, so most
// particles start close to the target and slow. The sparkler's velocity points
// along its offset (outwards).
CV_HD void respawn(Particle& s, const float3& target, uint32_t key, uint32_t index, Variant v,
                   const Params& p) {
  const float rx = uniform_pm1(key, index, 0), ry = uniform_pm1(key, index, 1),
              rz = uniform_pm1(key, index, 2);
  const float cx = rx * rx * rx, cy = ry * ry * ry, cz = rz * rz * rz;
  s.x = target.x + p.spawn_radius * cx;
  s.y = target.y + p.spawn_radius * cy;
  s.z = target.z + p.spawn_radius * cz;
  if (v == Variant::Sparkler) {
    s.vx = p.spawn_speed * rx;  // not cubed: a bright burst in every direction
    s.vy = p.spawn_speed * ry;
    s.vz = p.spawn_speed * rz;
  } else {
    s.vx = p.spawn_speed * cx;
    s.vy = p.spawn_speed * cy;
    s.vz = p.spawn_speed * cz;
  }
  s.age = 0.f;
}

// One step: respawn when old, steer (towards the target for the swarm, away
// from it for the sparkler), fall, damp, move, age. The 1e-12 keeps a particle
// sitting exactly on the target from producing NaN (it then gets no push).
CV_HD void step(Particle& s, const float3& target, uint32_t key, uint32_t index, Variant v,
                const Params& p) {
  if (s.age >= p.max_age) respawn(s, target, key, index, v, p);
  const float dx = target.x - s.x, dy = target.y - s.y, dz = target.z - s.z;
  const float inv = 1.f / std::sqrt(dx * dx + dy * dy + dz * dz + 1e-12f);
  const float push = (v == Variant::Swarm ? p.attraction : -p.attraction) * p.dt * inv;
  const float keep = 1.f - p.drag * p.dt;
  s.vx = (s.vx + dx * push) * keep;
  s.vy = (s.vy + dy * push - p.gravity * p.dt) * keep;
  s.vz = (s.vz + dz * push) * keep;
  s.x += s.vx * p.dt;
  s.y += s.vy * p.dt;
  s.z += s.vz * p.dt;
  s.age += p.dt;
}

// The VBO's w: age in [0, 1] for the shader's palette (young bright, old dim).
CV_HD float age01(float age, const Params& p) {
  const float a = p.max_age > 0.f ? age / p.max_age : 1.f;
  return a < 0.f ? 0.f : (a > 1.f ? 1.f : a);
}

}  // namespace cv::swarm
