#pragma once
// The n-body scene's simulation: a CUDA implementation with three force kernels
// and a CPU twin behind the same shape of interface. Both step positions that
// live in the caller's vertex buffer: `count` float4 = (x, y, z, |v|), the last
// component a colour parameter (speed) for the shader's palette. Velocities and
// masses live in the simulation's own state.
//
// Force variants (same math, different memory strategy), chosen per step:
//   original - one body per thread, every body read from global memory (the
//           notes' naive kernel).
//   tiled - one body per thread, bodies staged through shared memory one
//           block-sized tile at a time (the GPU Gems 3 scheme).
//   fast  - each pair of bodies evaluated once and applied to both (Newton's
//           third law), four bodies a lane (the pairs4 build, the plan on
//           every block), the triangle of pairs cut into pieces that fill the
//           GPU, sums in 64-bit fixed point (reproducible run to run); the
//           one-way builds of earlier rounds stay selectable by name
//           (set_fast_tile, CUDAVIZ_NBODY_TILE). Needs a block of a multiple
//           of 32 threads.
#include <cuda_runtime_api.h>
#include <vector_types.h>

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/block_shape.h"
#include "common/cpu_simd.h"
#include "insight/launch_ids.h"
#include "common/cuda_resources.h"
#include "common/kernel_attributes.h"
#include "common/name_table.h"
#include "nbody/nbody_initial.h"
#include "nbody/nbody_math.h"
#include "nbody/nbody_pairs_plan.h"

namespace cv::nbody {

enum class Variant { Original, Tiled, Fast };
// The variants, written once (common/name_table.h): the CLI spelling and what
// the combo adds, in the order benches run them and combos list them.
inline constexpr Named<Variant> kVariants[] = {
    // The original: the kernel as its reference document writes it; "seed" is
    // its older spelling, still taken from scripts and presets (docs/architecture.md, Words).
    {Variant::Original, "original", "global memory", "seed"},
    {Variant::Tiled, "tiled", "shared memory"},
    {Variant::Fast, "fast"},
};
const char* to_string(Variant v);
std::optional<Variant> parse_variant(const std::string& name);
const std::vector<Variant>& all_variants();

// The fast kernel's builds: "pairs4" (the default plan on every block: each
// pair once, 4 bodies a lane), "pairs8", ..., and the one-way builds of earlier
// rounds ("k8u4": 8 targets a thread, tile loop unrolled by 4, ...). tile ""
// follows the process default (set_default_fast_tile), then the default plan;
// fast_bodies_per_thread() is exact for any block and build.
std::vector<std::string> fast_tile_names();
// The build tile "" means, for the whole process (the app sets it once at
// start-up from CUDAVIZ_NBODY_TILE; "" or "auto": the plan). `origin` names
// where it came from in the error a bad name gives ("CUDAVIZ_NBODY_TILE").
void set_default_fast_tile(const std::string& tile, const std::string& origin);
unsigned fast_tile_max_threads(const std::string& tile);
unsigned fast_bodies_per_thread(const BlockShape& block, const std::string& tile = "");
// The build a block runs with (tile "" resolved through the default and the plan).
std::string fast_tile_for(const BlockShape& block, const std::string& tile = "");

// The force kernel a step of `v` launches with `block` (fast: the build `tile`
// names, "" for the default then the plan), with its dynamic shared
// memory (a float4 a thread for tiled and the one-way builds, a function of the
// block for the pairs builds), for the tuning panels; never throws.
KernelAttributes kernel_attributes(Variant v, const BlockShape& block, const std::string& tile = "");

// How many j-slices the fast kernel splits the work into: the smallest count
// whose blocks fill the device's resident block slots to at least 95%
// (quantised in waves), or the best fill when none does. i_blocks: blocks along
// the targets; max_slices: tiles along j (a slice holds at least one tile);
// resident: blocks the device runs at once. Always in [1, max_slices].
unsigned choose_slices(unsigned i_blocks, unsigned max_slices, unsigned resident);

// Throws std::invalid_argument unless softening^2 is > 0 and finite (with
// eps^2 = 0 a body's pull on itself is 0/0). Every step and force call checks
// it (the potential skips j == i and allows eps = 0).
void require_softening(const Params& p);

struct Energy {
  double kinetic = 0, potential = 0;
  double total() const { return kinetic + potential; }
};
// (E - E0) / |E0|: the relative drift since the reference (0 when E0 is 0).
double energy_drift(const Energy& now, const Energy& start);

// Sum of m v in double: (px, py, pz). vel holds (vx, vy, vz, mass).
struct Momentum {
  double x = 0, y = 0, z = 0;
};
Momentum momentum(const std::vector<float4>& vel);

struct FastBuild;
struct ForceSums;

class NBodyGpu {
 public:
  explicit NBodyGpu(unsigned count);
  unsigned count() const { return count_; }

  // Writes generated initial conditions into the VBO and the private state.
  void reset(float4* vbo, Initial ic, const Params& p, uint64_t seed, cudaStream_t s);
  // Same with given bodies (count of them).
  void load(float4* vbo, const Bodies& b, cudaStream_t s);

  // One leapfrog step: positions are read from the VBO (copied to a private
  // buffer first, so every thread sees the old positions), the variant's force
  // kernel runs with the caller's block shape (validated: std::invalid_argument),
  // and the new positions and speeds are written back to the VBO.
  // `ids` (optional): the integrating kernel also writes who computed each body.
  void step(float4* vbo, const Params& p, Variant v, const BlockShape& block, cudaStream_t s,
            const insight::IdsOut& ids = {});
  // The same step reading the positions from `source` (another buffer of the
  // same layout, or vbo itself) and writing every body of vbo.
  void step_from(const float4* source, float4* vbo, const Params& p, Variant v,
                 const BlockShape& block, cudaStream_t s, const insight::IdsOut& ids = {});

  // Kinetic + potential energy of the state in the VBO (O(N^2), on demand),
  // summed in double. Velocities are brought to the same time as the positions
  // first. Blocks until done.
  Energy energy(const float4* vbo, const Params& p, const BlockShape& block, cudaStream_t s);

  // G times the acceleration of every body (w = 0) as the variant computes it
  // for the positions in the VBO; the state is not changed. For tests and checks.
  std::vector<float4> accelerations(const float4* vbo, const Params& p, Variant v,
                                    const BlockShape& block, cudaStream_t s);
  // (vx, vy, vz, mass), velocities at the last half step. Blocks until done.
  std::vector<float4> velocities(cudaStream_t s) const;

  // A force kernel from elsewhere (the student's): snapshot() gathers the
  // positions of `source` with the masses into the padded bodies a force
  // kernel reads (padded_count() of them: zero-mass bodies after count(), at
  // least kBodyPad, so a tile of up to 1024 may read past n untested) and
  // returns them (device memory, valid until the next step); step_with()
  // then finishes the step from `acc` (count() accelerations in device
  // memory, without G) like step() does from its own force kernel, writing
  // vbo. `block` shapes the integrating launch (the ids of colour by launch).
  const float4* snapshot(const float4* source, cudaStream_t s);
  size_t padded_count() const;
  void step_with(const float4* acc, float4* vbo, const Params& p, const BlockShape& block,
                 cudaStream_t s, const insight::IdsOut& ids = {});

  // How the fast variant launches with this block shape on this device.
  struct FastLaunch {
    std::string build;        // fast_tile_names() entry
    bool pairs = false;       // each pair once (pairs builds) or one way
    unsigned per_thread = 1;  // bodies a thread (a lane) owns
    unsigned set_bodies = 0;  // bodies a block owns
    unsigned blocks = 0;      // blocks of the force launch
    unsigned slices = 1;      // one-way: j-slices; pairs: the most pieces of one set's range
  };
  FastLaunch fast_launch(const BlockShape& block) const;
  unsigned fast_slices(const BlockShape& block) const { return fast_launch(block).slices; }
  // The fast variant's tile build (one of fast_tile_names(); "" or "auto": the
  // plan). Throws std::invalid_argument for an unknown name.
  void set_fast_tile(const std::string& tile);
  const std::string& fast_tile() const { return fast_tile_; }

 private:
  void gather(const float4* vbo, unsigned threads, cudaStream_t s);
  ForceSums forces(Variant v, const Params& p, const BlockShape& block, cudaStream_t s);
  ForceSums fast_pairs(const FastBuild& b, const Params& p, const BlockShape& block,
                       cudaStream_t s);
  // The pairs plan for this build, block and residency: built once and kept,
  // since the scene panel asks for it every frame (fast_launch).
  const PairsPlan& pairs_plan(const FastBuild& b, unsigned threads, unsigned resident) const;

  unsigned count_;
  DeviceBuffer<float4> bodies_;  // x, y, z, mass: a snapshot of the VBO positions
  DeviceBuffer<float4> vel_;     // vx, vy, vz, mass
  DeviceBuffer<float4> acc_;     // partial accelerations, slices x count
  // The pairs builds: fixed-point sums (x, y, z planes), the plan (a cache,
  // planned again when the block, build or residency changes) and its work
  // list on the device, uploaded when the plan changed.
  struct PairsKey {
    unsigned threads = 0;
    std::string build;
    unsigned resident = 0;
    bool operator==(const PairsKey& o) const {
      return threads == o.threads && build == o.build && resident == o.resident;
    }
  };
  DeviceBuffer<unsigned long long> fixed_;
  mutable PairsPlan pairs_plan_;
  mutable PairsKey pairs_key_;
  DeviceBuffer<uint4> pairs_items_;
  PairsKey items_key_;
  double mass_sum_ = 0;  // sum of |m|: the fixed-point bound
  bool synced_ = true;           // velocities at the same time as positions (after reset)
  float last_dt_ = 0;
  std::string fast_tile_;  // "" : the process default (set_default_fast_tile) or the plan
};

class NBodyCpu {
 public:
  explicit NBodyCpu(unsigned count);
  unsigned count() const { return count_; }

  void reset(Initial ic, const Params& p, uint64_t seed);
  void load(const Bodies& b);

  // One leapfrog step, threaded over bodies. When *cancel becomes true during
  // the O(N^2) force loop the step returns early and leaves the state untouched.
  void step(const Params& p, const std::atomic<bool>* cancel = nullptr);
  // O(N^2) energy, summed in double (meant for small N).
  Energy energy(const Params& p) const;
  // G times each body's acceleration for the current positions (w = 0).
  std::vector<float4> accelerations(const Params& p,
                                    const std::atomic<bool>* cancel = nullptr) const;

  // The vertex data, (x, y, z, |v|), ready for glBufferSubData.
  const std::vector<float4>& vbo() const { return vbo_; }
  // (vx, vy, vz, mass), velocities at the last half step.
  const std::vector<float4>& velocities() const { return vel_; }

  // Instruction set of the force loop (default_simd_path() until set; tests
  // force each one). Throws std::invalid_argument for one this CPU lacks.
  void set_simd(SimdPath path);
  SimdPath simd() const { return simd_; }

  // A force kernel from elsewhere (the student's): the bodies it reads, (x, y,
  // z, mass) then `pad` zero-mass bodies; and one leapfrog step from its
  // accelerations (count of them, without G), as step() does from its own.
  std::vector<float4> bodies(size_t pad = 0) const;
  void step_with(const float4* acc, const Params& p);

 private:
  // Kick (by g times the accelerations) and drift every body.
  void integrate(const float4* a, float g, const Params& p);

  unsigned count_;
  std::vector<float4> vbo_, vel_;
  SimdPath simd_;
  bool synced_ = true;
  float last_dt_ = 0;
};

}  // namespace cv::nbody
