#pragma once
// The fountain of document 004, one particle at a time. Written once, called by the
// CUDA kernels (fountain.cu) and the CPU twin (fountain_cpu.cpp).
//
// Units follow document 004: one step per frame, distances in scene units, the
// table top is the disc y = 0, r < table_radius.
#include <vector_functions.h>  // make_float4 on host and device
#include <vector_types.h>

#include "common/hd.h"
#include "insight/launch_ids.h"

namespace cv::fountain {

struct Params {
  float max_age = 600.f;         // steps a particle lives before respawning
  float gravity = 1e-4f;         // vertical speed lost per step
  float restitution = 0.2f;      // fraction of vertical speed kept by a bounce
  float table_radius = 5.f;      // the table top is the disc r < table_radius at y = 0
  float spread = 0.02f;          // horizontal launch speed range (centred on 0)
  float launch_speed = 0.015f;   // base vertical launch speed
  float launch_jitter = 0.01f;   // extra vertical launch speed times the frame's random number
  float emitter_radius = 0.2f;   // the emitter circles at this radius...
  float emitter_speed = 0.01f;   // ...advancing this many radians per step
};

// Particles are laid out on a width x height grid (the document's 2D launch), the
// last row possibly partial: index = y * width + x < count.
struct Grid {
  unsigned width = 0, height = 0, count = 0;
};
Grid make_grid(unsigned count);  // width = ceil(sqrt(count))

// Which particle a thread steps: the document's 2D grid of 2D blocks, x along a
// row. Written once for the kernels and the memory-access view, which draws
// the addresses these give a warp (insight/access_model.h).
CV_HD insight::Xy thread_xy(const insight::Dim3u& block, const insight::Dim3u& thread,
                            const insight::Dim3u& block_dim) {
  return insight::grid2d_xy(block, thread, block_dim);
}
CV_HD unsigned particle_index(unsigned gx, unsigned gy, const Grid& g) { return gy * g.width + gx; }
// Threads past the row's end or the last particle exit early (the tail).
CV_HD bool particle_exists(unsigned gx, unsigned i, const Grid& g) { return gx < g.width && i < g.count; }

// Per-step inputs, the same for every particle.
struct Frame {
  float emitter_x = 0, emitter_z = 0;
  float randy = 0;  // in [0, 1): one random number per step, as in the seed
};

// Everything that changes between steps for one particle.
struct Particle {
  float x, y, z, age;
  float vy;
};

// Horizontal launch velocity from the particle's grid position. Constant over
// its life, so the lean variant derives it instead of storing it.
CV_HD float launch_vx(unsigned gx, const Grid& g, const Params& p) {
  return p.spread * (static_cast<float>(gx) / static_cast<float>(g.width) - 0.5f);
}
CV_HD float launch_vz(unsigned gy, const Grid& g, const Params& p) {
  return p.spread * (static_cast<float>(gy) / static_cast<float>(g.height) - 0.5f);
}

// One step: respawn when old, move, age, fall, bounce off the table top.
CV_HD void step(Particle& s, float vx, float vz, const Frame& f, const Params& p) {
  if (s.age >= p.max_age) {
    s.age = 0.f;
    s.vy = p.launch_speed + p.launch_jitter * f.randy;
    s.x = f.emitter_x;
    s.y = 0.f;
    s.z = f.emitter_z;
  }
  const float nx = s.x + vx, ny = s.y + s.vy, nz = s.z + vz;
  s.age += 1.f;
  s.vy -= p.gravity;
  // Document 004 tests the bounce against the position before the move.
  if (ny <= 0.f && s.x * s.x + s.z * s.z < p.table_radius * p.table_radius) s.vy *= -p.restitution;
  s.x = nx;
  s.y = ny;
  s.z = nz;
}

// Colour by age: white-yellow when young, red when old. The particle shader
// computes the same from the age it finds in the lean variant's w component.
CV_HD float4 colour(float age, const Params& p) {
  const float c = age / p.max_age;
  return make_float4(1.f, 1.f - 0.5f * c, 1.f - c, 1.f);
}

// Where a particle waits before its first respawn: far below the scene, where
// the shader discards it (document 004 parked particles off screen the same way).
constexpr float kHiddenY = -1.0e4f;

}  // namespace cv::fountain
