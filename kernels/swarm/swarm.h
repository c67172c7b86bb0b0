#pragma once
// The swarm scene's simulation: a CUDA implementation and a CPU twin behind the
// same shape of interface. Both step positions that live in the caller's vertex
// buffer: `count` float4 = (x, y, z, age01), age01 = age / max_age in [0, 1] for
// the shader's palette. Velocities and ages in steps are private state.
//
// Variants (same kernel, different steering; see swarm_math.h):
//   swarm    - particles steer towards the target and respawn near it.
//   sparkler - particles burst out of the target, are pushed away and fall.
// The target is passed to every step: the scene moves it on a path or puts it
// under the mouse.
#include <cuda_runtime_api.h>
#include <vector_types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/block_shape.h"
#include "common/cpu_simd.h"
#include "common/cuda_resources.h"
#include "common/kernel_attributes.h"
#include "common/name_table.h"
#include "insight/launch_ids.h"
#include "swarm/swarm_math.h"

namespace cv::swarm {

// The variants, written once (common/name_table.h): the CLI spelling and what
// the combo adds, in the order benches run them and combos list them.
inline constexpr Named<Variant> kVariants[] = {
    {Variant::Swarm, "swarm", "steer to the target"},
    {Variant::Sparkler, "sparkler", "pushed away, falling"},
};
const char* to_string(Variant v);
std::optional<Variant> parse_variant(const std::string& name);
const std::vector<Variant>& all_variants();

Grid make_grid(unsigned count);  // width = ceil(sqrt(count))

// Bytes of vertex buffer for `count` particles, and bytes a step moves through
// device memory per particle (read + write of the VBO float4 and the state float4).
size_t vbo_bytes(unsigned count);
// The step kernel (both variants run it), for the tuning panels; never throws.
KernelAttributes kernel_attributes();
constexpr size_t kBytesPerParticleStep = 2 * (16 + 16);

// A target moving on a slow Lissajous path around the origin, for scenes and
// benches that have no mouse: position at step `step`.
float3 path_target(uint64_t step, float radius = 0.6f);

// Initial state, built on the host so both backends start identically:
// particles spread around the target with random ages in [0, max_age), so
// respawns are staggered over the first max_age steps.
struct InitialState {
  std::vector<float4> vbo;    // x, y, z, age01
  std::vector<float4> state;  // vx, vy, vz, age (steps)
};
InitialState initial_state(unsigned count, Variant v, const Params& p, uint64_t seed,
                           float3 target);

class SwarmGpu {
 public:
  SwarmGpu(unsigned count, Variant v = Variant::Swarm);
  unsigned count() const { return grid_.count; }
  const Grid& grid() const { return grid_; }
  Variant variant() const { return variant_; }
  // Switching variant keeps the particles; the new steering applies from the next step.
  void set_variant(Variant v) { variant_ = v; }
  uint64_t steps() const { return steps_; }

  // Writes the initial state into the VBO (vbo_bytes(count)) and the private state.
  void reset(float4* vbo, const Params& p, uint64_t seed, cudaStream_t s,
             float3 target = float3{0.f, 0.f, 0.f});
  // One step with the caller's block shape (any x, y, z; validated against the
  // device: std::invalid_argument). Particles form a width x height grid; x
  // threads walk a row, y*z threads walk rows.
  // `ids` (optional): each thread also writes who computed its particle.
  void step(float4* vbo, float3 target, const Params& p, const BlockShape& block, cudaStream_t s,
            const insight::IdsOut& ids = {});
  // The same step reading the previous frame from `source` (another buffer of
  // the same layout, or vbo itself) and writing every particle of vbo.
  void step_from(const float4* source, float4* vbo, float3 target, const Params& p,
                 const BlockShape& block, cudaStream_t s, const insight::IdsOut& ids = {});

  // (vx, vy, vz, age) of every particle. Blocks until done. For tests.
  std::vector<float4> state(cudaStream_t s) const;

 private:
  Grid grid_;
  Variant variant_;
  uint64_t seed_ = 1, steps_ = 0;
  DeviceBuffer<float4> state_;  // vx, vy, vz, age
};

class SwarmCpu {
 public:
  SwarmCpu(unsigned count, Variant v = Variant::Swarm);
  unsigned count() const { return grid_.count; }
  const Grid& grid() const { return grid_; }
  Variant variant() const { return variant_; }
  void set_variant(Variant v) { variant_ = v; }
  uint64_t steps() const { return steps_; }

  void reset(const Params& p, uint64_t seed, float3 target = float3{0.f, 0.f, 0.f});
  void step(float3 target, const Params& p);  // threaded over particles

  // The vertex data, (x, y, z, age01), ready for glBufferSubData.
  const std::vector<float4>& vbo() const { return vbo_; }
  // (vx, vy, vz, age) of every particle.
  const std::vector<float4>& state() const { return state_; }

  // Instruction set of the step loop (default_simd_path() until set; tests
  // force each one). Throws std::invalid_argument for one this CPU lacks.
  void set_simd(SimdPath path);
  SimdPath simd() const { return simd_; }

 private:
  Grid grid_;
  Variant variant_;
  SimdPath simd_;
  uint64_t seed_ = 1, steps_ = 0;
  std::vector<float4> vbo_, state_;
};

}  // namespace cv::swarm
