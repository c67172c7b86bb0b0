#pragma once
// The fountain scene's simulation: a CUDA implementation and a CPU twin behind
// the same shape of interface. Both step positions that live in the caller's
// vertex buffer (mapped VBO, staging buffer or host array).
//
// Variants (same physics, different memory traffic per particle and step):
//   lean - VBO holds float4(x, y, z, age); the only other state is vy.
//          Colour is derived from age in the shader: 40 bytes moved.
//   original - document 004's layout: VBO holds float4 positions then float4 colours,
//              state float4(age, vx, vy, vz): 80 bytes moved.
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
#include "fountain/fountain_math.h"
#include "insight/launch_ids.h"

namespace cv::fountain {

enum class Variant { Lean, Original };
// The variants, written once (common/name_table.h): the CLI spelling and what
// the combo adds, in the order benches run them and combos list them.
inline constexpr Named<Variant> kVariants[] = {
    {Variant::Lean, "lean", "40 B/particle"},
    // The original: the kernel as its reference document writes it; "seed" is
    // its older spelling, still taken from scripts and presets (docs/architecture.md, Words).
    {Variant::Original, "original", "80 B/particle", "seed"},
};
const char* to_string(Variant v);
std::optional<Variant> parse_variant(const std::string& name);
const std::vector<Variant>& all_variants();

// Bytes of vertex buffer the variant needs for `count` particles, and whether
// colours are stored in it (after the positions) or derived from age.
size_t vbo_bytes(Variant v, unsigned count);
bool stores_colour(Variant v);
// The step kernel the variant launches (registers, shared memory), for the
// tuning panels; errors are in the result, never thrown.
KernelAttributes kernel_attributes(Variant v);
// Bytes a step must move through device memory per particle (reads + writes).
size_t bytes_per_particle_step(Variant v);

// Host-side generation of the per-step inputs (emitter path and random number)
// so the CUDA and CPU paths see identical frames.
class FrameClock {
 public:
  explicit FrameClock(uint64_t seed = 1) : rng_(seed ? seed : 1) {}
  Frame next(const Params& p);
  uint64_t steps() const { return steps_; }

 private:
  uint64_t rng_;
  uint64_t steps_ = 0;
};

// Initial state: every particle parked below the scene with a random age so
// respawns are staggered over the first max_age steps.
struct InitialState {
  std::vector<float4> positions;  // x, y, z, age
  std::vector<float> vy;
};
InitialState initial_state(const Grid& g, const Params& p, uint64_t seed);

class FountainGpu {
 public:
  FountainGpu(unsigned count, Variant v);
  unsigned count() const { return grid_.count; }
  Variant variant() const { return variant_; }
  const Grid& grid() const { return grid_; }

  // Writes the initial state into the VBO (vbo_bytes(variant, count) bytes) and
  // the private state buffer.
  void reset(float4* vbo, const Params& p, uint64_t seed, cudaStream_t s);
  // One step with the caller's block shape (validated: std::invalid_argument).
  // `ids` (optional): each thread also writes who computed its particle.
  void step(float4* vbo, const Frame& f, const Params& p, const BlockShape& block, cudaStream_t s,
            const insight::IdsOut& ids = {});
  // The same step reading the previous frame from `source` (another buffer of
  // the same layout, or vbo itself) and writing every byte of vbo.
  void step_from(const float4* source, float4* vbo, const Frame& f, const Params& p,
                 const BlockShape& block, cudaStream_t s, const insight::IdsOut& ids = {});

 private:
  Grid grid_;
  Variant variant_;
  DeviceBuffer<float> vy_;       // lean
  DeviceBuffer<float4> state_;   // original: age, vx, vy, vz
};

class FountainCpu {
 public:
  FountainCpu(unsigned count, Variant v);
  unsigned count() const { return grid_.count; }
  Variant variant() const { return variant_; }
  const Grid& grid() const { return grid_; }

  void reset(const Params& p, uint64_t seed);
  void step(const Frame& f, const Params& p);  // threaded over particles
  // The vertex data in the variant's VBO layout, ready for glBufferSubData.
  const std::vector<float4>& vbo() const { return vbo_; }
  // Private state: vy (lean) or float4(age, vx, vy, vz) (seed).
  const std::vector<float>& vy() const { return vy_; }
  const std::vector<float4>& state() const { return state_; }

  // Instruction set of the step loop (default_simd_path() until set; tests
  // force each one). Throws std::invalid_argument for one this CPU lacks.
  void set_simd(SimdPath path);
  SimdPath simd() const { return simd_; }

 private:
  Grid grid_;
  Variant variant_;
  SimdPath simd_;
  std::vector<float4> vbo_;
  std::vector<float> vy_;
  std::vector<float4> state_;
  std::vector<float> vx_;  // lean: launch_vx() per grid column, rebuilt each step
};

}  // namespace cv::fountain
