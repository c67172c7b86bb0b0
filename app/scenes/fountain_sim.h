#pragma once
// The fountain's simulation behind one interface, made once from the backend
// (cuda-samples nbody's BodySystem: one interface, a CUDA and a CPU
// implementation): FountainSimCuda runs fountain::FountainGpu's kernels on the
// vertex target's device memory, FountainSimCpu the threaded twin
// (fountain::FountainCpu) and puts its vertices into the target. Both call the
// same per-particle math (fountain/fountain_math.h); the scene never asks which.
#include <cstdint>
#include <memory>

#include "common/block_shape.h"
#include "common/device_info.h"
#include "fountain/fountain.h"
#include "gl/vertex_target.h"
#include "insight/launch_ids.h"

namespace cv {

class FountainSim {
 public:
  virtual ~FountainSim() = default;
  // The initial state (same seed, same frames after it) into `out`.
  virtual void reset(VertexWrite& out, const fountain::Params& p, uint64_t seed) = 0;
  // One step from the previous frame into `out` with the caller's block shape
  // (the GPU validates it: std::invalid_argument). `ids`: colour by launch
  // (CUDA only: the CPU backend derives the ids in a pass of its own).
  virtual void step(VertexWrite& out, const fountain::Frame& f, const fountain::Params& p,
                    const BlockShape& block, const insight::IdsOut& ids) = 0;
};

// Throws CudaError / bad_alloc when the state cannot be allocated.
std::unique_ptr<FountainSim> make_fountain_sim(Backend backend, unsigned count,
                                               fountain::Variant v);

}  // namespace cv
